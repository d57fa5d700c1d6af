public import CoreMetrics
import GRDB
public import Logging
public import StateSyncJournal

/// A ``Journal`` in one SQLite file under a data directory (default
/// `./statesync-data/statesync.sqlite`), held with an exclusive lock so that
/// two servers never share it.
///
/// **Durability.** The file is in WAL mode with `PRAGMA synchronous = FULL`:
/// each commit appends the transaction to the write-ahead log and fsyncs it
/// once, so one `append` (one transaction) costs one fsync, and the
/// completion runs only after that fsync returned. (A rollback journal with
/// FULL costs two to three fsyncs per commit; WAL with NORMAL does not fsync
/// at commit and would break "ack means durable".) Checkpoints copy the log
/// into the database now and then (SQLite's default: every 1,000 pages) and
/// fsync both files; they run on the writer after a commit.
///
/// **Failing writes.** A write that fails because the disk is full or
/// failing (SQLite's `SQLITE_FULL` or `SQLITE_IOERR`) is retried with
/// exponential backoff (``Configuration/firstRetryDelay`` up to
/// ``Configuration/maximumRetryDelay``) until it succeeds: its batch, and
/// everything appended meanwhile, waits, and ``writeFault`` says why, so the
/// server can report it and refuse new actions. Nothing is acknowledged
/// before it is durable, and writes resume on their own once space is
/// freed. Each attempt rewrites the whole transaction. Any other failure is
/// final, as is a failing write while closing.
///
/// **Stores.** This is `main`'s journal, a file of its own; every other
/// store of a server is a journal of the same type opened from
/// ``SQLiteStores``, its rows keyed by store in one shared file.
///
/// **Damage.** ``DurableRecord`` keeps the last durable revision beside the
/// file; opening a journal that ends before it follows
/// ``Configuration/damagedJournal``. A clean ``close()`` checkpoints the log
/// into the database and truncates it, so a stopped server leaves no log to
/// damage.
///
/// **Group commit.** The shared ``GroupCommitWriter`` runs it: a batch passed
/// to ``append(_:completion:)`` while an earlier group is being written
/// waits, and all batches waiting then are committed together in one
/// transaction on GRDB's writer connection (``SQLiteGroupStorage``): the
/// sequencer never waits, and one fsync covers everything that arrived
/// during the previous one. Reads run on a
/// separate pool of read-only connections and never wait for the writer.
///
/// **Why GRDB and not sqlite-nio.** GRDB's `DatabasePool` is a synchronous
/// API on a dedicated serial writer queue plus concurrent WAL readers: the
/// exact shape of a group-commit writer, with cached prepared statements and
/// direct `PRAGMA` control. It links the system `libsqlite3`. sqlite-nio runs
/// each statement as an `EventLoopFuture` hop through an `NIOThreadPool`
/// (one hop per insert in a batch) and compiles its own copy of the SQLite
/// amalgamation. Build cost on the 2-core VM (2026-11-21, under load) is a
/// wash: GRDB ~100 s debug and ~100 s release; sqlite-nio's amalgamation
/// ~15 s debug and ~125 s release (plus SwiftNIO, which the server builds
/// anyway). Note that GRDB's pool sets `synchronous = NORMAL` when it
/// enables WAL; this type sets FULL afterwards and checks that it holds.
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

    /// Opens (or creates) the journal in `configuration.directory`, taking
    /// its lock. Runs on a background thread: opening reads the file.
    ///
    /// - Parameters:
    ///   - configuration: where the journal lives and what it keeps.
    ///   - logger: gets `info` when the journal opens and closes, `trace`
    ///     per committed group, `error` when a write fails, and `critical`
    ///     when a damaged journal starts a new epoch.
    ///   - writeFailures: counts failed write attempts (each retry too);
    ///     `statesync serve` passes `statesync_journal_write_failures_total`.
    /// - Throws: ``JournalError``: the directory cannot be created or is not
    ///   writable, another server holds it, the file is not a StateSync
    ///   journal, or it is damaged (``JournalError/isDamaged``) and the
    ///   policy is ``DamagedJournalPolicy/refuse``.
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
