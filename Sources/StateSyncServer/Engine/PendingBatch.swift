import StateSyncCore

/// What the sequencer has decided but not yet made visible: the journal
/// batch, the JSON state after each of its entries, and the answers to send
/// once it is durable (DESIGN invariant 3).
struct PendingBatch {
    /// What goes to the journal in one append.
    var journal = JournalBatch()
    /// The mirror after each entry of `journal.entries`, in order.
    var states: [JSONValue] = []
    /// Answers to dispatches, sent after the batch's patches.
    var answers: [DispatchAnswer] = []

    /// Whether there is nothing to write and nothing to answer.
    var isEmpty: Bool { journal.isEmpty && answers.isEmpty }
}

/// The `ack` or `reject` of one dispatch, waiting for durability.
struct DispatchAnswer {
    /// The session to answer.
    var sessionID: String
    /// The dispatch's id.
    var actionID: String
    /// What became of it.
    var outcome: JournalOutcome
    /// When the dispatch reached the engine (for the latency statistics).
    var received: ContinuousClock.Instant
    /// Whether this repeats an earlier dispatch of the same pair.
    var isDuplicate: Bool
}
