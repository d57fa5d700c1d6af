import StateSyncCore

/// What a shard publishes of one committed batch: the state after it, its
/// revision count, where the mirror changed, and the answers after its patches.
/// Changes behind a busy shard are merged (``append(_:)``).
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

    /// Merges `later`, the next change for the same shard, into this one; every
    /// answer still follows a patch to a revision at or after its own.
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
