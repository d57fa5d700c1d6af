import GRDB
import Logging
import StateSyncJournal
import Synchronization

/// The one writer of the stores' file (``SQLiteStores``): every change
/// pending from every store (each store's group commit, a store's row, a
/// store deleted) is written in ONE `BEGIN IMMEDIATE … COMMIT`, so one fsync
/// covers all the stores that wrote meanwhile.
///
/// Each change runs inside a `SAVEPOINT` of its own: a change that fails
/// for a reason of its own (a revision that is already stored) is rolled
/// back alone and gets its error, while the others commit. A transaction
/// that fails as a whole (`BEGIN` or `COMMIT` failing, a full or failing
/// disk inside any change) fails every change with the same error, a
/// retryable ``GroupCommitFailure`` when the disk is full or failing
/// (classified as ``SQLiteGroupStorage`` does). Each transaction also
/// counts itself in the file's meta table, and the count goes to the
/// durable record after the commit (``JournalFileKind``).
///
/// **Changes that may wait for the next fsync.** A transaction of only
/// such changes (the row of a store closed before its first write, see
/// ``PendingStoreRow``) commits with
/// `synchronous = NORMAL`: written to the log, not synced, and not
/// counted, so that losing it in an OS crash is not taken for damage. The
/// next counted commit's fsync makes it durable with the log before it; a
/// process crash never loses it (the log is written). What it costs at
/// worst is an empty store whose creation an OS crash undid.
///
/// **No task of its own.** The caller whose change arrives while no
/// transaction is being written leads: it writes the transaction on GRDB's
/// writer queue (taking every change pending when the queue runs it), then
/// hands the lead to the first change that arrived meanwhile, whose caller
/// writes the next one. So nothing runs while no store writes, and no
/// caller writes more than one transaction beyond its own.
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

    /// Writes `change` in the next combined transaction and returns once
    /// that transaction is durable, or, when `waitsForSync` (and every
    /// change of the transaction does), once it is written to the log for
    /// the next synced commit to make durable.
    ///
    /// - Throws: the change's own ``JournalError`` (it alone was rolled
    ///   back), or the transaction's failure: a retryable
    ///   ``GroupCommitFailure`` for a full or failing disk, else a ``JournalError``.
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
