import Logging
import StateSyncServer
import Synchronization

/// What the writer does when PostgreSQL refuses a group: another writer
/// moved the head first, or had decided one of its pairs.
extension PostgresBatchWriter {
    /// The head is at `actual`, not at the revision `seen` this writer last
    /// committed or read: `group` and everything pending fail with a revision
    /// gap, in order, and the queue continues from `actual`. A head *behind*
    /// `seen` means the database lost committed transactions: that is thrown,
    /// final.
    func refuse(_ group: [GroupCommitQueue.Work], seen: UInt64, actual: UInt64, first: UInt64) throws(JournalError) {
        guard actual > seen else {
            throw .postgres(server, "write a batch", "the store's head revision \(actual) is behind the revision "
                + "\(seen) this node saw committed: the database lost committed transactions")
        }
        logger.notice("another writer moved the store's head: this node must catch up", metadata: [
            "seen": "\(seen)", "head": "\(actual)"])
        let gap = JournalError.revisionGap(expected: actual + 1, got: first)
        let rest = queue.withLock { $0.refused(head: actual) }
        for work in group + rest { work.completion(.failure(gap)) }
    }

    /// Another writer had decided some of `group`'s pairs (a client sent the
    /// same `(clientId, id)` to two nodes): the transaction was rolled back,
    /// the head is still `seen`, and `group` and everything pending fail with
    /// ``JournalError/isOutcomeConflict``; the engine looks the pairs up and
    /// sequences the rest again.
    func refuse(_ group: [GroupCommitQueue.Work], decidedElsewhere pairs: Int, seen: UInt64) {
        logger.notice("another writer had decided some of the batch's (clientId, id) pairs: nothing was written", metadata: [
            "pairs": "\(pairs)", "head": "\(seen)"])
        let conflict = JournalError.outcomeConflict(pairs: pairs)
        let rest = queue.withLock { $0.refused(head: seen) }
        for work in group + rest { work.completion(.failure(conflict)) }
    }
}
