import CoreMetrics
import Dispatch
import GRDB
import Logging
import Synchronization

extension SQLiteJournal {
    func enqueue(_ work: GroupCommitQueue.Work) {
        switch queue.withLock({ $0.enqueue(work) }) {
        case .startDrain: pool.asyncWriteWithoutTransaction { [self] db in drain(db) }
        case .none: break
        case .reject(let error): work.completion(.failure(error))
        }
    }

    /// Runs on the writer queue: commits groups until nothing is pending, or
    /// until a group fails and its retry is scheduled (the retry continues
    /// the drain).
    private func drain(_ db: Database) {
        while true {
            switch queue.withLock({ $0.next() }) {
            case .write(let group):
                guard commit(group, db) else { return }
            case .stop(let closeWaiters):
                guard !closeWaiters.isEmpty else { return }
                // Closing the pool from its own writer queue would deadlock.
                DispatchQueue.global().async { [self] in
                    let result = releaseResources()
                    for waiter in closeWaiters { waiter(result) }
                }
                return
            }
        }
    }

    /// Writes `group` in one transaction. Returns `false` when it failed and
    /// a retry is scheduled; `true` when it was committed, or failed for
    /// good (its completions and those of everything pending then report
    /// the error).
    private func commit(_ group: [GroupCommitQueue.Work], _ db: Database) -> Bool {
        do {
            try db.inTransaction(.immediate) {
                try JournalStatements.write(group, into: db, retention: configuration.retention)
                return .commit
            }
        } catch {
            writeFailures?.increment()
            let journalError = Self.journalError(error, path: path, operation: "commit a batch")
            if let reason = Self.retryableReason(error), !queue.withLock({ $0.isClosed }) {
                retry(group, after: journalError, reason: reason)
                return false
            }
            logger.error("journal write failed; no further writes", metadata: ["error": "\(journalError)"])
            let rest = queue.withLock { $0.failed(journalError) }
            for work in group + rest { work.completion(.failure(.failed(after: journalError))) }
            return true
        }
        let (revision, failures) = queue.withLock { queue in
            let failures = queue.fault?.failures
            queue.committed(group)
            return (queue.durableRevision, failures)
        }
        if let failures { logger.notice("journal writes resumed", metadata: ["failures": "\(failures)"]) }
        if group.contains(where: { if case .batch = $0 { true } else { false } }),
           !record.write(DurableRecord.Mark(epoch: epoch, revision: revision)) {
            logger.warning("could not update the durable record", metadata: ["revision": "\(revision)"])
        }
        logger.trace("journal group committed", metadata: ["works": "\(group.count)", "revision": "\(revision)"])
        for work in group { work.completion(.success(())) }
        return true
    }

    /// Records the fault and writes `group` again after the backoff, on the
    /// writer queue; the drain resumes from there once it is committed.
    private func retry(_ group: [GroupCommitQueue.Work], after error: JournalError, reason: String) {
        let failures = queue.withLock { $0.retrying(reason: reason) }
        let delay = RetryBackoff(first: configuration.firstRetryDelay, maximum: configuration.maximumRetryDelay)
            .delay(attempt: failures)
        logger.error(
            "journal write failed; retrying",
            metadata: ["error": "\(error)", "failures": "\(failures)", "retryIn": "\(delay)"])
        let nanoseconds = Int(delay / .nanoseconds(1))
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
            pool.asyncWriteWithoutTransaction { [self] db in
                if commit(group, db) { drain(db) }
            }
        }
    }

    /// The path-free reason of a failure worth retrying (the disk is full
    /// or failing), or `nil` for one that is final.
    static func retryableReason(_ error: any Error) -> String? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL: return "the disk is full"
        case .SQLITE_IOERR: return "a disk I/O error"
        default: return nil
        }
    }
}
