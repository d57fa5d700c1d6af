/// What a storage back end does for the ``GroupCommitWriter``: write one group in one
/// transaction and say how it went. The writer owns queue, retries, faults and completions.
package protocol GroupCommitStorage: Sendable {
    /// Writes `group` in one transaction; `seen` is the revision its first entry must
    /// follow. Throws ``GroupCommitFailure``; any other error is final.
    func commit(_ group: [GroupCommitQueue.Work], after seen: UInt64) async throws -> GroupCommitOutcome

    /// The store's head revision as the storage has it now, read after a
    /// commit whose outcome is unknown (``GroupCommitFailure/outcomeUnknown(_:)``)
    /// so that the next group starts from what was really stored.
    func storedHead() async throws -> UInt64

    /// The writer has nothing to write: end anything held for a next group
    /// (``GroupCommitOutcome/refused(head:holdUntil:)``) once its deadline
    /// passed, or at once when `closing`.
    func idle(closing: Bool) async

    /// The writer's drain ended after ``GroupCommitWriter/close()``:
    /// release what the storage holds (connections, files, locks).
    func release() async -> Result<Void, JournalError>
}

/// How one group's transaction ended, short of an error.
package enum GroupCommitOutcome: Sendable {
    /// The group is durable.
    case committed
    /// Another writer had moved the store's head to `head` first: nothing was written.
    /// With `holdUntil`, the storage keeps a turn until then and the writer wakes to let it end it.
    case refused(head: UInt64, holdUntil: ContinuousClock.Instant?)
    /// Another writer had decided `pairs` of the group's `(clientId, id)`
    /// pairs: nothing was written, and the head is unchanged.
    case decidedElsewhere(pairs: Int)
}

/// Why a group's transaction failed: when the writer may do something about
/// it, or, for ``final(_:reason:)``, why it gives up; any other error a back
/// end throws is final too, for a reason the writer cannot name.
package enum GroupCommitFailure: Error {
    /// Nothing was written and the same group may be written again after a
    /// backoff (a full disk, a lost connection before `COMMIT`); `reason`
    /// is the path-free ``JournalWriteFault/reason`` reported meanwhile.
    case retryable(JournalError, reason: String)
    /// The group may or may not be stored (a connection lost during
    /// `COMMIT`): it is never written again, and the writer reads the head
    /// (``GroupCommitStorage/storedHead()``) before going on.
    case outcomeUnknown(JournalError)
    /// The storage refused the group (a read-only database, a canceled
    /// statement): the writer gives up, and `reason` is the path-free
    /// ``JournalWriteFault/reason`` of its final fault.
    case final(JournalError, reason: String)
}
