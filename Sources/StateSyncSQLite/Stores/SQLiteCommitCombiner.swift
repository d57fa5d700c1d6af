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
/// own: the caller that finds no transaction running leads, then hands the lead on.
final class SQLiteCommitCombiner: Sendable {
    /// One store's change, run inside the combined transaction.
    typealias Change = @Sendable (Database) throws -> Void

    private enum Signal: Sendable {
        /// Write the next transaction (the change is in it).
        case lead
        /// The change's transaction ended so.
        case done(Result<Void, any Error>)
    }

    private struct Part: Sendable {
        let id: UInt64
        let change: Change
        let waitsForSync: Bool
        let signal: CheckedContinuation<Signal, Never>
    }

    private struct State {
        var pending: [Part] = []
        var leading = false
        var nextID: UInt64 = 0
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
        var id: UInt64 = 0
        let signal = await withCheckedContinuation { (continuation: CheckedContinuation<Signal, Never>) in
            let leads = state.withLock { state in
                id = state.nextID
                state.nextID += 1
                state.pending.append(Part(id: id, change: change, waitsForSync: waitsForSync, signal: continuation))
                let leads = !state.leading
                state.leading = true
                return leads
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch signal {
        case .done(let result):
            try result.get()
        case .lead:
            let result = await writeTransaction(leader: id)
            let next = state.withLock { state in
                if state.pending.isEmpty { state.leading = false }
                return state.pending.first
            }
            next?.signal.resume(returning: .lead)
            try result.get()
        }
    }

    /// Writes every pending change in one transaction on the writer queue,
    /// completes every other caller's, and returns the leader's own result.
    private func writeTransaction(leader: UInt64) async -> Result<Void, any Error> {
        let written: [(Part, Result<Void, any Error>)] = await withCheckedContinuation { continuation in
            pool.asyncWriteWithoutTransaction { db in
                let parts = self.state.withLock { state in
                    defer { state.pending.removeAll() }
                    return state.pending
                }
                continuation.resume(returning: Array(zip(parts, self.write(parts, in: db))))
            }
        }
        var own: Result<Void, any Error> = .success(())
        for (part, result) in written {
            if part.id == leader { own = result } else { part.signal.resume(returning: .done(result)) }
        }
        return own
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
