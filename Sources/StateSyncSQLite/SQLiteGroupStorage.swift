import GRDB
import Logging
import StateSyncJournal

/// The transaction of an ``SQLiteJournal``'s group commit, for the shared
/// ``GroupCommitWriter``: for `main`'s file one `BEGIN IMMEDIATE … COMMIT` (one fsync), then
/// the durable record; for a store, its part of the stores' file's next combined
/// transaction (``SQLiteCommitCombiner``). Only a full or failing disk is retryable.
struct SQLiteGroupStorage: GroupCommitStorage {
    /// Where a group is committed.
    enum Target: Sendable {
        /// In a transaction of its own in the journal's own file.
        case file(JournalFile)
        /// In the next combined transaction of the stores' file.
        case shared(SQLiteCommitCombiner)
    }

    let pool: DatabasePool
    let path: String
    let scope: JournalScope
    let retention: JournalRetention
    let target: Target
    /// The row of a store this open created, written with its first commit (a store of the stores' file only).
    var creation: PendingStoreRow? = nil
    let logger: Logger

    func commit(_ group: [GroupCommitQueue.Work], after seen: UInt64) async throws -> GroupCommitOutcome {
        let change: SQLiteCommitCombiner.Change = { [scope, retention] db in
            try JournalStatements.write(group, into: db, scope: scope, retention: retention)
        }
        switch target {
        case .file(let file):
            do {
                try await pool.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try change(db)
                        return .commit
                    }
                }
            } catch {
                throw Self.failure(error, path: path, operation: "commit a batch")
            }
            if group.hasBatch {
                let revision = group.lastEntryRevision ?? seen
                if !file.marker.mark(revision) {
                    logger.warning("could not update the durable record", metadata: ["revision": "\(revision)"])
                }
            }
        case .shared(let combiner):
            guard let creation, creation.isPending else {
                try await combiner.commit(change)
                break
            }
            try await combiner.commit { db in
                try creation.insert(into: db)
                try change(db)
            }
            creation.markWritten()
        }
        return .committed
    }

    /// This process is the file's only writer: its head is what it committed.
    func storedHead() async throws -> UInt64 {
        try await pool.read { [scope] in try JournalStatements.lastRevision($0, scope: scope) }
    }

    /// Nothing is held between groups.
    func idle(closing: Bool) async {}

    /// Closes the journal's own file (see ``JournalFile/close(logger:)``);
    /// a store of the stores' file leaves it open for the others, after
    /// writing its row if no commit did.
    func release() async -> Result<Void, JournalError> {
        switch target {
        case .file(let file):
            return await file.close(logger: logger)
        case .shared(let combiner):
            if let creation, creation.isPending { await write(creation, with: combiner) }
            logger.debug("store journal closed", metadata: ["path": "\(path)"])
            return .success(())
        }
    }

    /// Writes the row of a store closed before any commit, unsynced (the next synced commit
    /// makes it durable); when that fails, the store, empty, is gone after a restart.
    private func write(_ creation: PendingStoreRow, with combiner: SQLiteCommitCombiner) async {
        do {
            try await combiner.commit(waitsForSync: true) { try creation.insert(into: $0) }
            creation.markWritten()
        } catch {
            logger.warning("the row of a store created empty could not be written: it will not exist after a restart", metadata: [
                "path": "\(path)", "store": "\(creation.name)", "error": "\(error)"])
        }
    }

    /// What to throw for `error`, a failed transaction: a retryable
    /// ``GroupCommitFailure`` when the disk is full or failing, else the
    /// final ``JournalError``.
    static func failure(_ error: any Error, path: String, operation: String) -> any Error {
        let journalError = SQLiteJournal.journalError(error, path: path, operation: operation)
        guard let reason = retryableReason(error) else { return journalError }
        return GroupCommitFailure.retryable(journalError, reason: reason)
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
