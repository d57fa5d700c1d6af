public import Logging
import GRDB
public import StateSyncJournal
import Synchronization

/// Every store of a server other than `main` in one SQLite file of its data
/// directory, `stores.sqlite` (WAL, `synchronous = FULL`, like `main`'s
/// journal): a ``StoreJournals`` from which an ``SQLiteJournal`` per store
/// is opened and closed cheaply, their rows keyed by store.
///
/// What the stores share, opened once: the file's lock (`stores.lock`, so
/// that it never depends on `main`'s journal being open), its durable
/// record (`stores.durable`, see ``JournalFileKind``), GRDB's pool (one
/// writer, two readers: every store's reads go through them), and one
/// writer for all of them (``SQLiteCommitCombiner``): each store's journal
/// keeps its own ``GroupCommitWriter`` (its ordering, gap checks, retries
/// and faults), whose groups meet in one transaction, one fsync, for every
/// store that wrote meanwhile. An open store costs its journal object and
/// its writer, no file descriptor and no connection.
///
/// The list of stores (``exists(_:)``, ``names()``) is kept in memory,
/// loaded when the file opens; creating a store is one row in the next
/// combined transaction. A file behind its durable record is damaged:
/// refused, or every store gets a new epoch (``DamagedJournalPolicy``).
///
/// ```swift
/// let stores = try await SQLiteStores.open(
///     configuration: .init(journal: .init(directory: "./statesync-data")), logger: logger)
/// let journal = try await stores.open("team-42", logger: logger, writeFailed: {})
/// // …
/// try await journal.close()
/// try await stores.close()
/// ```
public final class SQLiteStores: StoreJournals {
    /// Where the stores' file is and what each store's journal keeps.
    public struct Configuration: Sendable, Hashable {
        /// The data directory, each store's retention, the damaged-file
        /// policy and the retry delays, as for a journal alone; its
        /// ``SQLiteJournal/Configuration/fileName`` (`main`'s file) is not used.
        public var journal: SQLiteJournal.Configuration
        /// The stores' file name in the data directory. Default
        /// `stores.sqlite`, beside `main`'s `statesync.sqlite`.
        public var fileName: String

        /// A configuration with the documented defaults.
        public init(journal: SQLiteJournal.Configuration = SQLiteJournal.Configuration(), fileName: String = "stores.sqlite") {
            self.journal = journal
            self.fileName = fileName
        }
    }

    /// The stores' file's path.
    public let path: String
    let configuration: Configuration
    let pool: DatabasePool
    let combiner: SQLiteCommitCombiner
    private let file: JournalFile
    private let catalog: Mutex<StoreCatalog>
    private let closed = Mutex(false)
    private let logger: Logger

    /// Opens (or creates) the stores' file in the data directory, taking
    /// its lock, and reads the list of stores. Runs on a background thread.
    ///
    /// - Throws: ``JournalError``: the directory cannot be created or is
    ///   not writable, another server holds the file, it is not a StateSync
    ///   stores' file, or it is damaged (``JournalError/isDamaged``) and the
    ///   policy is ``DamagedJournalPolicy/refuse``.
    public static func open(configuration: Configuration = Configuration(), logger: Logger) async throws -> SQLiteStores {
        let file = try await JournalFile.onBackgroundThread {
            try JournalFile.open(
                directory: configuration.journal.directory, fileName: configuration.fileName, kind: .stores,
                policy: configuration.journal.damagedJournal, logger: logger)
        }
        do {
            let catalog = try await file.pool.read { try StoresSchema.storeCatalog($0) }
            logger.info("stores opened", metadata: [
                "path": "\(file.path)", "epoch": "\(file.epoch)", "stores": "\(catalog.count)", "commits": "\(file.count)"])
            return SQLiteStores(configuration: configuration, file: file, catalog: catalog, logger: logger)
        } catch {
            _ = await file.close(logger: logger)   // the read's error is the one to report
            throw SQLiteJournal.journalError(error, path: file.path, operation: "read the list of stores")
        }
    }

    private init(configuration: Configuration, file: JournalFile, catalog: StoreCatalog, logger: Logger) {
        self.configuration = configuration
        self.file = file
        self.path = file.path
        self.pool = file.pool
        self.catalog = Mutex(catalog)
        self.logger = logger
        combiner = SQLiteCommitCombiner(pool: file.pool, path: file.path, commits: file.count, marker: file.marker, logger: logger)
    }

    /// Opens the journal of `store`, creating the store (one row, a new
    /// epoch) when it does not exist (see ``StoreJournals/open(_:logger:writeFailed:)``).
    public func open(_ store: String, logger: Logger, writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal {
        guard !closed.withLock({ $0 }) else { throw JournalError.closed }
        var logger = logger
        logger[metadataKey: "store"] = "\(store)"
        let row = try await storeRow(store)
        logger.debug("store journal opened", metadata: ["epoch": "\(row.epoch)", "revision": "\(row.lastRevision)"])
        let scope = JournalScope.store(row.id)
        return SQLiteJournal(
            configuration: configuration.journal, epoch: row.epoch, lastRevision: row.lastRevision, scope: scope,
            storage: SQLiteGroupStorage(
                pool: pool, path: path, scope: scope, retention: configuration.journal.retention,
                target: .shared(combiner), creation: row.creation, logger: logger),
            logger: logger, writeFailed: writeFailed)
    }

    /// The id, epoch and last revision of `store`; created when missing, with its row still to write.
    private func storeRow(_ store: String) async throws -> StoreRow {
        switch catalog.withLock({ $0.lookUpOrReserve(store) }) {
        case .existing:
            let found = try await read("open the store \(store)") { db -> StoreRow? in
                guard let (id, epoch) = try StoresSchema.row(ofStore: store, in: db) else { return nil }
                return StoreRow(id: id, epoch: epoch, lastRevision: try JournalStatements.lastRevision(db, scope: .store(id)), creation: nil)
            }
            if let found { return found }
            // Its name's hash is another store's (see StoreCatalog): it is new.
            return create(store, id: catalog.withLock { $0.reserveID() })
        case .new(let id):
            return create(store, id: id)
        }
    }

    /// Creates `store` with the reserved `id` and a new epoch. Its row is
    /// written with its journal's first commit (``PendingStoreRow``).
    private func create(_ store: String, id: Int64) -> StoreRow {
        let epoch = Epoch.random()
        catalog.withLock { $0.created(store) }
        logger.info("store created", metadata: ["store": "\(store)", "epoch": "\(epoch)"])
        return StoreRow(id: id, epoch: epoch, lastRevision: 0, creation: PendingStoreRow(name: store, id: id, epoch: epoch))
    }

    /// Why the stores' file failed for good, if a whole transaction did
    /// (see ``StoreJournals/failure``).
    public var failure: String? { combiner.failure }

    /// Whether `store` exists (from memory: it never blocks).
    public func exists(_ store: String) -> Bool {
        catalog.withLock { $0.contains(store) }
    }

    /// The names of the stores, in no order: one read of the file on a
    /// reader connection (names are not kept in memory, see
    /// ``StoreCatalog``); empty when the read fails.
    public func names() -> [String] {
        (try? pool.read { try StoresSchema.names($0) }) ?? []   // empty: the listing shows what could be read
    }

    /// How many stores the file holds, from the catalog in memory (see
    /// ``StoreJournals/storeCount``): no read.
    public var storeCount: Int {
        catalog.withLock { $0.count }
    }

    /// One page of the names, in ascending order after `after` (see
    /// ``StoreJournals/names(after:limit:)``): one read of the names' index
    /// on a reader connection, whatever the number of stores; empty when
    /// the read fails.
    public func names(after: String?, limit: Int) async -> [String] {
        (try? await pool.read { try StoresSchema.names($0, after: after, limit: limit) }) ?? []   // as names()
    }

    /// Deletes every row of `store`, its catalog row included, in one
    /// transaction; a store that does not exist is nothing to delete. Its
    /// journal must be closed.
    ///
    /// - Throws: ``JournalError``: nothing was deleted.
    public func remove(_ store: String) async throws {
        guard exists(store),
              let id = try await read("delete the store \(store)", { try StoresSchema.row(ofStore: store, in: $0)?.id })
        else { return }
        try await change("delete the store \(store)") { try StoresSchema.remove(store: id, in: $0) }
        catalog.withLock { $0.removed(store) }
        logger.info("store deleted", metadata: ["store": "\(store)"])
    }

    /// Checkpoints the log into the file and truncates it, closes the file
    /// and releases its lock; call once every journal opened here is
    /// closed. A second call does nothing.
    ///
    /// - Throws: ``JournalError``: the checkpoint or closing failed.
    public func close() async throws {
        guard closed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        try await file.close(logger: logger).get()
    }

    /// The bytes the rows of each of `stores` hold, by name; a store that
    /// does not exist is left out, and all are when the read fails: the
    /// length of each entry's action, client and action ids, of each
    /// snapshot's state, and of each outcome's ids, code and message, plus
    /// 16 bytes per row for its numbers. SQLite's own overhead (pages,
    /// indexes, the log) is not counted. One read on a reader connection
    /// for them all (a listing's page), bounded by their retention (it
    /// scans their rows); the caller is suspended meanwhile, no thread of
    /// Swift's concurrency pool is held.
    public func storedBytes(of stores: [String]) async -> [String: Int] {
        let existing = stores.filter(exists)
        guard !existing.isEmpty else { return [:] }
        let read = try? await pool.read { db in
            var bytes: [String: Int] = [:]
            for store in existing {
                guard let row = try StoresSchema.row(ofStore: store, in: db) else { continue }
                bytes[store] = try StoresSchema.storedBytes(ofStore: row.id, in: db)
            }
            return bytes
        }
        return read ?? [:]   // unknown, as documented
    }

    /// The names of the files beside `main`'s in the data directory that
    /// hold the stores (the file, its log and shared memory, lock and record).
    public var fileNames: Set<String> {
        let name = configuration.fileName
        return [name, name + "-wal", name + "-shm", JournalFileKind.stores.lockFileName, JournalFileKind.stores.recordFileName]
    }

    /// Runs `body` on a reader connection, mapping errors to ``JournalError``.
    private func read<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw SQLiteJournal.journalError(error, path: path, operation: operation)
        }
    }

    /// Writes `body` in the next combined transaction, mapping errors to ``JournalError``.
    private func change(_ operation: String, _ body: @escaping SQLiteCommitCombiner.Change) async throws {
        do {
            try await combiner.commit(body)
        } catch GroupCommitFailure.retryable(let error, _) {
            throw error
        } catch {
            throw SQLiteJournal.journalError(error, path: path, operation: operation)
        }
    }
}

/// A store's catalog row as a journal opens it.
private struct StoreRow: Sendable {
    let id: Int64
    let epoch: String
    let lastRevision: UInt64
    /// The row to write, when this open created the store (it has no rows yet).
    let creation: PendingStoreRow?
}
