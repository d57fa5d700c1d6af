public import CoreMetrics
import GRDB
public import Logging
public import StateSyncJournal

/// A ``Journal`` in one SQLite file under a data directory (default
/// `./statesync-data/statesync.sqlite`), locked so that two servers never share it:
/// `main`'s journal (other stores come from ``SQLiteStores``). WAL with `synchronous = FULL`
/// (GRDB's pool sets NORMAL; this sets FULL and checks it): one fsync per commit, and
/// completions run after it. The shared ``GroupCommitWriter`` commits waiting batches
/// together on GRDB's serial writer; reads use its concurrent WAL readers. A full or failing
/// disk is retried with backoff while ``writeFault`` says why; other failures are final.
/// ``DurableRecord`` detects a damaged file at open (``Configuration/damagedJournal``); a
/// clean ``close()`` checkpoints and truncates the log.
///
/// ```swift
/// let journal = try await SQLiteJournal.open(
///     configuration: .init(directory: "./statesync-data"), logger: logger)
/// try await journal.append(JournalBatch(entries: [entry]))
/// ```
public final class SQLiteJournal: Journal {
    /// The epoch stored in the file (see ``Journal/epoch``); a new one when
    /// a damaged journal was opened with ``DamagedJournalPolicy/newEpoch``.
    public let epoch: String
    /// The journal file's path (for a store of ``SQLiteStores``, the file
    /// every store other than `main` shares).
    public let path: String

    let configuration: Configuration
    let pool: DatabasePool
    /// The rows that are this journal's: the whole file, or one store's.
    let scope: JournalScope
    let writer: GroupCommitWriter<SQLiteGroupStorage>
    /// The row of a store this open created, until a commit writes it.
    private let creation: PendingStoreRow?

    /// Opens (or creates) the journal in `configuration.directory` on a background thread,
    /// taking its lock; `writeFailures` counts failed write attempts. A damaged file
    /// (``JournalError/isDamaged``) throws under ``DamagedJournalPolicy/refuse``.
    public static func open(
        configuration: Configuration = Configuration(), logger: Logger, writeFailures: CoreMetrics.Counter? = nil
    ) async throws -> SQLiteJournal {
        try await JournalFile.onBackgroundThread {
            let file = try JournalFile.open(
                directory: configuration.directory, fileName: configuration.fileName, kind: .oneStore,
                policy: configuration.damagedJournal, logger: logger)
            logger.info(
                "journal opened", metadata: ["path": "\(file.path)", "epoch": "\(file.epoch)", "revision": "\(file.count)"])
            return SQLiteJournal(
                configuration: configuration, epoch: file.epoch, lastRevision: file.count, scope: .wholeFile,
                storage: SQLiteGroupStorage(
                    pool: file.pool, path: file.path, scope: .wholeFile, retention: configuration.retention, target: .file(file),
                    logger: logger),
                logger: logger, writeFailed: { writeFailures?.increment() })
        }
    }

    /// A journal on `storage`'s rows `scope`, continuing after `lastRevision`.
    init(
        configuration: Configuration, epoch: String, lastRevision: UInt64, scope: JournalScope, storage: SQLiteGroupStorage,
        logger: Logger, writeFailed: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.epoch = epoch
        self.creation = storage.creation
        self.path = storage.path
        self.pool = storage.pool
        self.scope = scope
        let writer = GroupCommitWriter(
            storage: storage, lastRevision: lastRevision,
            backoff: RetryBackoff(first: configuration.firstRetryDelay, maximum: configuration.maximumRetryDelay),
            logger: logger, writeFailed: writeFailed)
        self.writer = writer
    }

    /// Whether the store was created by the open that returned this
    /// journal and nothing was committed since (see ``Journal/isKnownEmpty``).
    public var isKnownEmpty: Bool { creation?.isPending ?? false }

    /// The highest durable revision (see ``Journal/lastRevision``).
    public var lastRevision: UInt64 { writer.durableRevision }

    /// Why writes are failing while they are retried, or `nil` (see ``Journal/writeFault``).
    public var writeFault: JournalWriteFault? { writer.fault }

    /// Queues `batch` for the next group commit (see ``Journal/append(_:completion:)``).
    public func append(
        _ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void
    ) {
        writer.enqueue(.batch(batch, completion))
    }

    /// Stores `snapshot` and applies the retention (see ``Journal/saveSnapshot(_:)``).
    public func saveSnapshot(_ snapshot: JournalSnapshot) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writer.enqueue(.snapshot(snapshot) { continuation.resume(with: $0) })
        }
    }

    /// Waits for pending writes, checkpoints and truncates the log, closes
    /// the file and releases the lock (see ``Journal/close()``).
    public func close() async throws {
        _ = try await writer.close()
    }

    // MARK: Reads

    /// Runs `body` on a reader connection, mapping errors to ``JournalError``.
    func read<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws
        -> T
    {
        if writer.isClosed { throw JournalError.closed }
        do {
            return try await pool.read(body)
        } catch {
            throw Self.journalError(error, path: path, operation: operation)
        }
    }

    /// Runs `body` on the writer connection (tests read its pragmas).
    func withWriter<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction(body)
    }

    static func journalError(_ error: any Error, path: String, operation: String) -> JournalError {
        if let error = error as? JournalError { return error }
        guard let error = error as? DatabaseError else {
            return .sqlite(path, operation: operation, "\(error)")
        }
        let message = "\(error.message ?? "unknown error") (SQLite code \(error.extendedResultCode.rawValue))"
        if error.resultCode == .SQLITE_NOTADB {
            return .notAJournal(path, reason: message)
        }
        return .sqlite(path, operation: operation, message)
    }
}

extension JournalError {
    /// SQLite failed to do `operation` on the journal at `path`.
    static func sqlite(_ path: String, operation: String, _ message: String) -> JournalError {
        .storage("SQLite in \(path)", operation: operation, message: message)
    }
}
