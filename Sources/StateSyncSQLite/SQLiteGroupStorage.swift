import Dispatch
import GRDB
import Logging
import StateSyncJournal

/// The transaction of an ``SQLiteJournal``'s group commit, for the shared
/// ``GroupCommitWriter``: one `BEGIN IMMEDIATE … COMMIT` (one fsync) on
/// GRDB's writer connection for the whole group, then the durable record.
/// A full or failing disk (`SQLITE_FULL`, `SQLITE_IOERR`) is retryable; any
/// other failure is final.
struct SQLiteGroupStorage: GroupCommitStorage {
    let pool: DatabasePool
    let path: String
    let retention: JournalRetention
    let marker: DurableMarker
    let logger: Logger

    func commit(_ group: [GroupCommitQueue.Work], after seen: UInt64) async throws -> GroupCommitOutcome {
        do {
            try await pool.writeWithoutTransaction { [retention] db in
                try db.inTransaction(.immediate) {
                    try JournalStatements.write(group, into: db, retention: retention)
                    return .commit
                }
            }
        } catch {
            let journalError = SQLiteJournal.journalError(error, path: path, operation: "commit a batch")
            guard let reason = Self.retryableReason(error) else { throw journalError }
            throw GroupCommitFailure.retryable(journalError, reason: reason)
        }
        if group.hasBatch {
            let revision = group.lastEntryRevision ?? seen
            if !marker.mark(revision) {
                logger.warning("could not update the durable record", metadata: ["revision": "\(revision)"])
            }
        }
        return .committed
    }

    /// This process is the file's only writer: its head is what it committed.
    func storedHead() async throws -> UInt64 {
        try await pool.read { try JournalStatements.lastRevision($0) }
    }

    /// Nothing is held between groups.
    func idle(closing: Bool) async {}

    /// Checkpoints the log into the database and truncates it (a stopped
    /// server leaves no log whose damage could roll history back), closes
    /// the file and releases the directory's lock.
    func release() async -> Result<Void, JournalError> {
        defer { marker.release() }
        do {
            _ = try await pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try pool.close()
            logger.info("journal closed", metadata: ["path": "\(path)"])
            return .success(())
        } catch {
            return .failure(SQLiteJournal.journalError(error, path: path, operation: "close the journal"))
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
