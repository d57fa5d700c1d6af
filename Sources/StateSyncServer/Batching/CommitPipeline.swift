import StateSyncCore
import StateSyncJournal

/// Group commit as a value: the *building* batch and the one *in flight*. It
/// owns invariant 3 ("ack means durable"): answers leave only with their
/// durable batch, in order; after a journal failure it stops exposing anything.
struct CommitPipeline {
    /// What the end of a round does with the building batch.
    enum Flush {
        /// Nothing to do now (empty, or a batch is still in flight).
        case none
        /// Hand this batch to the journal (it is now in flight).
        case write(JournalBatch)
        /// Publish this batch at once: it holds only answers, and
        /// everything before it is already durable.
        case publish(PendingBatch)
        /// The pipeline is stopped: publish this batch, whose accepted
        /// actions are now answered `internal_error` (see ``stop(reason:)``).
        case fail(PendingBatch)
    }

    private(set) var building = PendingBatch()
    private(set) var inFlight: PendingBatch?
    /// Why the pipeline accepts no more actions; `nil` while healthy.
    private(set) var failure: String?

    /// Whether nothing is building or in flight.
    var isIdle: Bool { inFlight == nil && building.isEmpty }

    /// Adds an accepted entry, what it changed in the mirror, and how to
    /// start its effect once it is durable (`nil`: it has none).
    mutating func append(_ entry: JournalEntry, change: MirrorDelta, startingEffect: (@Sendable () -> Void)?) {
        building.journal.entries.append(entry)
        building.change.merge(change)
        if let startingEffect { building.effects.append(startingEffect) }
    }

    /// Adds an answer; a rejection of a `(clientId, id)` pair is journaled
    /// too (exactly-once across restarts).
    mutating func answer(_ answer: DispatchAnswer, journaling rejection: JournalRejection? = nil) {
        building.answers.append(answer)
        if let rejection { building.journal.rejections.append(rejection) }
    }

    /// Adds a decided rejection, to log when the batch is published.
    mutating func log(_ rejection: RejectedAction) {
        building.rejections.append(rejection)
    }

    /// Records what the building batch is being reduced from (see ``PendingBatch/inputs``).
    mutating func record(_ input: BatchInput) {
        building.inputs.append(input)
    }

    /// Takes the building batch away unwritten and unanswered (the engine
    /// sequences its inputs again after catching up).
    mutating func takeBuilding() -> PendingBatch {
        defer { building = PendingBatch() }
        return building
    }

    /// The journal refused the batch in flight because another writer
    /// moved the shared head: it is returned whole, never answered nor
    /// written, and the pipeline stays healthy.
    mutating func refused() -> PendingBatch? {
        defer { inFlight = nil }
        return inFlight
    }

    /// The in-flight batch's outcome is unknown: it is returned as failed for the
    /// caller to withhold, and the pipeline stays healthy while the engine catches up.
    mutating func outcomeUnknown(reason: String) -> PendingBatch? {
        defer { inFlight = nil }
        return inFlight.map { Self.failed($0, reason: reason) }
    }

    /// Adds what the journal must forget of remembered outcomes with the
    /// building batch (``ExactlyOnce/takeJournalChanges()``).
    mutating func retain(_ changes: ExactlyOnce.JournalChanges) {
        building.journal.forgottenClients += changes.forgottenClients
        for client in changes.forgottenClients { building.journal.outcomeTrims[client] = nil }
        building.journal.outcomeTrims.merge(changes.outcomeTrims) { _, new in new }
    }

    /// The end of a round: `state` is the mirror after the building batch's
    /// last entry (read only when the batch has entries).
    mutating func flush(state: @autoclosure () -> JSONValue) -> Flush {
        guard inFlight == nil, !building.isEmpty else { return .none }
        var batch = building
        building = PendingBatch()
        if let failure, !batch.journal.entries.isEmpty {
            return .fail(Self.failed(batch, reason: failure))
        }
        if batch.journal.isEmpty { return .publish(batch) }
        batch.state = state()
        inFlight = batch
        return .write(batch.journal)
    }

    /// The batch in flight is durable: it is returned, to publish.
    mutating func durable() -> PendingBatch? {
        defer { inFlight = nil }
        return inFlight
    }

    /// Stops the pipeline for `reason` (the state stopped encoding, or the
    /// journal failed): from the next ``flush(state:)`` on, every batch
    /// with entries fails. The first reason stays.
    mutating func stop(reason: String) {
        failure = failure ?? reason
    }

    /// The journal failed to write the batch in flight: the pipeline stops,
    /// and that batch is returned as failed, to publish.
    mutating func journalFailed(reason: String) -> PendingBatch? {
        stop(reason: reason)
        defer { inFlight = nil }
        return inFlight.map { Self.failed($0, reason: reason) }
    }

    /// `batch` will never be durable: its accepted actions are answered
    /// with `internal_error` (their revisions are never exposed), its
    /// rejections as decided, and nothing of it is written.
    private static func failed(_ batch: PendingBatch, reason: String) -> PendingBatch {
        var failed = batch
        failed.state = nil
        failed.journal = JournalBatch()
        failed.change = MirrorDelta()
        failed.effects = []
        for index in failed.answers.indices {
            if case .accepted = failed.answers[index].outcome {
                failed.answers[index].outcome = .rejected(code: "internal_error", message: reason)
            }
        }
        return failed
    }
}
