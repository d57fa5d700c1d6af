import GRDB
import Logging
import StateSyncJournal
import Synchronization

/// The one writer of the stores' file (``SQLiteStores``): every pending change of every store
/// goes in one `BEGIN IMMEDIATE … COMMIT`, one fsync. Each change runs in its own `SAVEPOINT`,
/// so one failing for its own reason rolls back alone; a whole-transaction failure fails all
/// (retryable for a full or failing disk). Each synced transaction is counted in the meta
/// table and the durable record. A transaction of only changes that may wait for the next
/// fsync (``PendingStoreRow``) commits with `synchronous = NORMAL`, uncounted. No task of its
/// own: the pool's writer queue runs one transaction after another while changes wait.
final class SQLiteCommitCombiner: Sendable {
    /// One store's change, run inside the combined transaction.
    typealias Change = @Sendable (Database) throws -> Void

    private struct Part: Sendable {
        let change: Change
        let waitsForSync: Bool
        let completion: CheckedContinuation<Result<Void, any Error>, Never>
    }

    private struct State {
        var pending: [Part] = []
        /// Whether a transaction is queued on the writer or being written.
        var writing = false
        /// The transactions committed to the file so far.
        var commits: UInt64
        /// Whether the writer's `synchronous` is `FULL` (as the pool opens it).
        var synchronousFull = true
        /// The first failure of a whole transaction that no retry mends.
        var failure: String?
    }

    private let state: Mutex<State>
    private let pool: DatabasePool
    private let path: String
    private let marker: DurableMarker
    private let logger: Logger

    /// The writer of the file at `path`, open in `pool`, whose meta table
    /// counts `commits` transactions; `marker` records the count after each.
    init(pool: DatabasePool, path: String, commits: UInt64, marker: DurableMarker, logger: Logger) {
        self.pool = pool
        self.path = path
        self.marker = marker
        self.logger = logger
        state = Mutex(State(commits: commits))
    }

    /// Why a whole transaction failed for good, if one has (the file
    /// refuses writes, say): every store of the file fails with it, so
    /// the server reports it as its own failure.
    var failure: String? { state.withLock { $0.failure } }

    /// The changes waiting for the next transaction (tests use it to line
    /// changes up in one).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// Writes `change` in the next combined transaction and returns once it is durable, or,
    /// when every change has `waitsForSync`, written to the log. Throws the change's own
    /// ``JournalError``, or the transaction's failure (retryable for a full or failing disk).
    func commit(waitsForSync: Bool = false, _ change: @escaping Change) async throws {
        let result = await withCheckedContinuation { (completion: CheckedContinuation<Result<Void, any Error>, Never>) in
            let starts = state.withLock { state in
                state.pending.append(Part(change: change, waitsForSync: waitsForSync, completion: completion))
                let starts = !state.writing
                state.writing = true
                return starts
            }
            if starts { queueTransaction() }
        }
        try result.get()
    }

    /// Queues a transaction on the writer of every change pending when it starts. The next
    /// is queued before this one's callers resume, so the writer never waits for them.
    private func queueTransaction() {
        pool.asyncWriteWithoutTransaction { db in
            let parts = self.state.withLock { state in
                defer { state.pending.removeAll() }
                return state.pending
            }
            let results = self.write(parts, in: db)
            let more = self.state.withLock { state in
                state.writing = !state.pending.isEmpty
                return state.writing
            }
            if more { self.queueTransaction() }
            for (part, result) in zip(parts, results) { part.completion.resume(returning: result) }
        }
    }

    /// Sets the writer's `synchronous` to `FULL` or `NORMAL` when it is not
    /// already; a synced transaction whose `FULL` cannot be set fails.
    private func setSynchronous(full: Bool, in db: Database) throws {
        guard state.withLock({ $0.synchronousFull }) != full else { return }
        try db.execute(sql: full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL")
        state.withLock { $0.synchronousFull = full }
    }

    /// Puts the writer back to `FULL` after an unsynced commit, at once, as
    /// the pool's other writes (snapshots, retention) expect it; when that
    /// fails, the next synced transaction sets it or fails.
    private func restoreFullSynchronous(in db: Database) {
        do {
            try setSynchronous(full: true, in: db)
        } catch {
            logger.error("could not set synchronous = FULL again", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }

    /// Runs `parts` in one transaction, each in a savepoint; their results in order.
    private func write(_ parts: [Part], in db: Database) -> [Result<Void, any Error>] {
        var results: [Result<Void, any Error>] = []
        let synced = !parts.allSatisfy(\.waitsForSync)
        do {
            try setSynchronous(full: synced, in: db)
            try db.beginTransaction(.immediate)
            for part in parts {
                do {
                    try db.inSavepoint {
                        try part.change(db)
                        return .commit
                    }
                    results.append(.success(()))
                } catch where SQLiteGroupStorage.retryableReason(error) == nil && db.isInsideTransaction {
                    results.append(.failure(SQLiteJournal.journalError(error, path: path, operation: "commit a batch")))
                }
            }
            guard synced else {
                try db.commit()
                restoreFullSynchronous(in: db)
                return results
            }
            let commits = state.withLock { $0.commits } + 1
            try StoresSchema.setCommits(commits, in: db)
            try db.commit()
            state.withLock { $0.commits = commits }
            if !marker.mark(commits) {
                logger.warning("could not update the durable record", metadata: ["path": "\(path)", "commit": "\(commits)"])
            }
            return results
        } catch {
            if db.isInsideTransaction {
                try? db.rollback()   // the transaction's own error is the one to report
            }
            if !synced { restoreFullSynchronous(in: db) }
            let failure = SQLiteGroupStorage.failure(error, path: path, operation: "commit a batch")
            logger.error("the stores' transaction failed", metadata: ["path": "\(path)", "error": "\(error)", "changes": "\(parts.count)"])
            if SQLiteGroupStorage.retryableReason(error) == nil {
                state.withLock { $0.failure = $0.failure ?? "the stores' file \(path) failed: \(failure)" }
            }
            return parts.map { _ in .failure(failure) }
        }
    }
}
