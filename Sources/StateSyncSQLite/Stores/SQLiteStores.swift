public import Logging
import GRDB
public import StateSyncJournal
import Synchronization

/// Every store of a server other than `main` in one SQLite file of its data directory,
/// `stores.sqlite` (WAL, `synchronous = FULL`): a ``StoreJournals`` from which an
/// ``SQLiteJournal`` per store is opened and closed cheaply, its rows keyed by store.
/// The stores share the file's own lock and durable record, GRDB's pool, and one writer
/// (``SQLiteCommitCombiner``): each journal keeps its own ``GroupCommitWriter``, whose groups
/// meet in one transaction, one fsync. An open store holds no file descriptor or connection.
/// A file behind its durable record is refused, or every store gets a new epoch.
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

    /// Opens (or creates) the stores' file in the data directory on a background thread,
    /// taking its lock, and reads the list of stores; a damaged file (``JournalError/isDamaged``)
    /// throws under ``DamagedJournalPolicy/refuse``.
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

    /// One page of the names in ascending order after `after`: one read of the names' index,
    /// whatever the number of stores; empty when the read fails.
    public func names(after: String?, limit: Int) async -> [String] {
        (try? await pool.read { try StoresSchema.names($0, after: after, limit: limit) }) ?? []   // as names()
    }

    /// Deletes every row of `store`, its catalog row included, in one transaction (nothing when
    /// it does not exist); its journal must be closed. When it throws, nothing was deleted.
    public func remove(_ store: String) async throws {
        guard exists(store),
              let id = try await read("delete the store \(store)", { try StoresSchema.row(ofStore: store, in: $0)?.id })
        else { return }
        try await change("delete the store \(store)") { try StoresSchema.remove(store: id, in: $0) }
        catalog.withLock { $0.removed(store) }
        logger.info("store deleted", metadata: ["store": "\(store)"])
    }

    /// Checkpoints and truncates the log, closes the file and releases its lock; call once,
    /// after every journal opened here is closed (a second call does nothing).
    public func close() async throws {
        guard closed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        try await file.close(logger: logger).get()
    }

    /// The bytes the rows of each of `stores` hold, by name: ids, actions, states and outcome
    /// texts, plus 16 bytes a row, without SQLite's own overhead. One read for all, bounded by
    /// their retention; missing stores are left out, and all are when the read fails.
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
