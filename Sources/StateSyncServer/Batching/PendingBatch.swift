import StateSyncCore
import StateSyncJournal

/// What the sequencer has decided but not yet made visible: the journal
/// batch, the JSON state after its last entry, and the answers to send
/// once it is durable (invariant 3: ack means durable).
struct PendingBatch {
    /// What goes to the journal in one append.
    var journal = JournalBatch()
    /// Revisions the batch adds: one per accepted entry, plus those it
    /// skips.
    var revisions: Int { journal.entries.count + skippedRevisions }
    /// Revisions published without their entries: a cluster follower whose
    /// missed entries were dropped by the journal's retention loads a later
    /// snapshot instead (``Sequencer/readMissedEntries()``).
    var skippedRevisions = 0
    /// The mirror after the batch's last entry, taken at hand-off only: keeping
    /// intermediate states would make each change copy shared containers.
    var state: JSONValue?
    /// What the batch's entries changed in the mirror: the paths the
    /// fan-out starts from, and the cost the history window charges.
    var change = MirrorDelta()
    /// Answers to dispatches, sent after the batch's patches.
    var answers: [DispatchAnswer] = []
    /// The batch's rejections, logged for devtools once it is published, so a
    /// batch sequenced again logs them once.
    var rejections: [RejectedAction] = []
    /// Starts the effects of the batch's commands, in order, once it is
    /// durable (an effect of an action that was never written never runs).
    var effects: [@Sendable () -> Void] = []
    /// What the batch was reduced from, in order: on a shared journal, a
    /// batch refused because another node moved the head is sequenced
    /// again from these once the engine has caught up.
    var inputs: [BatchInput] = []

    /// Whether there is nothing to write and nothing to answer.
    var isEmpty: Bool { journal.isEmpty && answers.isEmpty }
}

/// One thing a batch was reduced from, kept to sequence it again.
enum BatchInput {
    /// A client's dispatch, as it reached the engine.
    case dispatch(sessionID: String, id: String, action: JSONObject, received: ContinuousClock.Instant)
    /// A command of the server's own (presence, an effect's follow-up) in
    /// its journal form, with the clientId it was applied for.
    case command(journaled: [UInt8], clientID: String?)
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
