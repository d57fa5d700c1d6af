import StateSyncCore

/// What a fan-out shard publishes of one committed batch: the state after
/// it, how many revisions it adds, where the mirror changed, and the
/// answers that follow its patches.
///
/// Changes queued for a shard that is still busy with an earlier one are
/// merged (``append(_:)``) and published as one: its subscribers get one
/// patch to the latest revision instead of one per batch, as if the
/// sequencer had made one larger batch. Under a load the fan-out cannot
/// keep up with, the work then follows what the shard can send, not what
/// was committed, and nothing waits in the loop's queue behind it.
struct PublishedChange {
    /// The durable state after the change; `nil` when it only answers
    /// (dispatches refused or repeated, which add no revision).
    var state: JSONValue?
    /// Revisions the change adds (0 without a state).
    var revisions: Int
    /// Where the mirror changed, and the cost the history window charges.
    var change: MirrorDelta
    /// Answers to dispatches, sent after the change's patches.
    var answers: [DispatchAnswer]

    /// A change of `revisions` revisions to `state`, then `answers`.
    init(state: JSONValue?, revisions: Int, change: MirrorDelta = MirrorDelta(), answers: [DispatchAnswer] = []) {
        self.state = state
        self.revisions = state == nil ? 0 : revisions
        self.change = change
        self.answers = answers
    }

    /// The part of `batch` a shard publishes, with `answers` (the ones
    /// for that shard's sessions).
    init(_ batch: PendingBatch, answers: [DispatchAnswer]) {
        self.init(state: batch.state, revisions: batch.revisions, change: batch.change, answers: answers)
    }

    /// Whether publishing it changes nothing and sends nothing.
    var isEmpty: Bool { state == nil && answers.isEmpty }

    /// Makes this change and `later` (the next one for the same shard) one:
    /// the later state at both revisions' sum, both changed regions, and
    /// every answer in order, after the patches. An answer of this change
    /// then follows a patch to a revision at or after its own, so the
    /// patches still come before the answers that depend on them.
    mutating func append(_ later: PublishedChange) {
        if let newer = later.state {
            if state == nil {
                change = later.change
            } else {
                change.merge(later.change)
            }
            state = newer
            revisions += later.revisions
        }
        answers += later.answers
    }
}
