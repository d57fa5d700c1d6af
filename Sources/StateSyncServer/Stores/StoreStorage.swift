import CoreMetrics
import Foundation
import Logging
import StateSyncJournal
import StateSyncProtocol
import StateSyncSQLite
import Synchronization

/// Where each store keeps its journal, per ``StateSyncStorage``: a data
/// directory, memory (stores never close, as that would lose them), an
/// application's ``StoreJournals``, or its one journal (`main` only).
struct StoreStorage: Sendable {
    private enum Base: Sendable {
        case memory(MemoryJournals)
        case directory(String, SQLiteStores)
        case journal(@Sendable (Logger, _ writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal)
        case journals(any StoreJournals)
    }

    private let base: Base
    private let retention: JournalRetention
    private let damagedJournal: DamagedJournalPolicy
    private let writeFailures: CoreMetrics.Counter

    /// The storage of `configuration`, counting failed writes in
    /// `writeFailures`; opens the application's ``StoreJournals`` or the data
    /// directory's ``SQLiteStores``.
    static func open(
        configuration: StateSyncServerConfiguration, writeFailures: CoreMetrics.Counter, logger: Logger
    ) async throws -> StoreStorage {
        let storage = configuration.storage
        let base: Base
        if let open = storage.journalsOpener {
            base = .journals(try await open(logger))
        } else if let open = storage.journalOpener {
            base = .journal(open)
        } else if let directory = storage.directoryPath {
            base = .directory(directory, try await openStores(in: directory, configuration: configuration, logger: logger))
        } else {
            base = .memory(MemoryJournals())
        }
        return StoreStorage(base: base, configuration: configuration, writeFailures: writeFailures)
    }

    private init(base: Base, configuration: StateSyncServerConfiguration, writeFailures: CoreMetrics.Counter) {
        self.base = base
        retention = configuration.retention
        damagedJournal = configuration.damagedJournal
        self.writeFailures = writeFailures
    }

    /// Opens the stores' file of the data directory `directory`, warning
    /// about a `stores/` directory left by a server that kept each store in
    /// a directory of its own (its stores are not served).
    private static func openStores(
        in directory: String, configuration: StateSyncServerConfiguration, logger: Logger
    ) async throws -> SQLiteStores {
        let leftover = "\(directory)/stores"
        if FileManager.default.fileExists(atPath: leftover) {
            logger.warning(
                "a stores/ directory of an older layout is not served: stores other than main are in stores.sqlite",
                metadata: ["path": "\(leftover)"])
        }
        return try await SQLiteStores.open(
            configuration: .init(journal: .init(
                directory: directory, retention: configuration.retention, damagedJournal: configuration.damagedJournal)),
            logger: logger)
    }

    /// Whether an idle store may close: its journal keeps it (not memory).
    var closesIdleStores: Bool {
        if case .memory = base { return false }
        return true
    }

    /// Why the storage every store but `main` shares failed for good, if it did.
    var sharedFailure: String? {
        switch base {
        case .memory, .journal: nil
        case .directory(_, let journals as any StoreJournals), .journals(let journals): journals.failure
        }
    }

    /// The secret of the cluster that shares this storage, `nil` outside one
    /// (``StoreJournals/clusterSecret``).
    var clusterSecret: String? {
        if case .journals(let journals) = base { return journals.clusterSecret }
        return nil
    }

    /// Tells the other servers sharing the storage where this one listens.
    func advertise(address: String) {
        if case .journals(let journals) = base { journals.advertise(address: address) }
    }

    /// Whether `store` has a journal already (a role that may not create
    /// stores may still open it).
    func exists(_ store: StoreName) -> Bool {
        switch base {
        case .memory(let journals): store.isMain || journals.byStore.withLock { $0[store] != nil }
        case .journal: store.isMain
        case .directory(_, let journals as any StoreJournals), .journals(let journals): store.isMain || journals.exists(store.rawValue)
        }
    }

    /// Opens the journal of `store`, creating it when it does not exist.
    ///
    /// - Throws: ``JournalError``, or ``StoreStorageError`` for a store this storage cannot hold.
    func open(_ store: StoreName, logger: Logger) async throws -> any Journal {
        switch base {
        case .memory(let journals):
            let retention = retention
            return journals.byStore.withLock { journals in
                if let journal = journals[store] { return journal }
                let journal = MemoryJournal(configuration: .init(retention: retention))
                journals[store] = journal
                return journal
            }
        case .directory(let directory, _) where store.isMain:
            return try await SQLiteJournal.open(
                configuration: .init(directory: directory, retention: retention, damagedJournal: damagedJournal),
                logger: logger, writeFailures: writeFailures)
        case .journal(let open):
            guard store.isMain else { throw StoreStorageError.oneStoreOnly }
            let writeFailures = writeFailures
            return try await open(logger) { writeFailures.increment() }
        case .directory(_, let journals as any StoreJournals), .journals(let journals):
            let writeFailures = writeFailures
            return try await journals.open(store.rawValue, logger: logger) { writeFailures.increment() }
        }
    }

    /// Up to `limit` names of the stores this storage holds, `main`
    /// included, in order after `after`: a page of a listing, which SQLite
    /// reads from its names' index however many stores it holds.
    func storedNames(after: StoreName?, limit: Int) async -> [StoreName] {
        var names: Set<StoreName> = [.main]
        switch base {
        case .memory(let journals):
            names.formUnion(journals.byStore.withLock { Array($0.keys) })
        case .journal:
            break
        case .directory(_, let journals as any StoreJournals), .journals(let journals):
            let page = await journals.names(after: after?.rawValue, limit: limit)
            names.formUnion(page.compactMap { try? StoreName($0) })   // a storage's rows are not trusted
        }
        return Array(names.filter { name in after.map { name > $0 } ?? true }.sorted().prefix(limit))
    }

    /// How many stores this storage holds, `main` included: for SQLite
    /// from its catalog in memory, which it loaded when it opened.
    func storedCount() -> Int {
        switch base {
        case .memory(let journals):
            journals.byStore.withLock { $0[.main] == nil ? $0.count + 1 : $0.count }
        case .journal:
            1
        case .directory(_, let journals as any StoreJournals), .journals(let journals):
            journals.exists(StoreName.main.rawValue) ? journals.storeCount : journals.storeCount + 1
        }
    }

    /// Removes what `store` stored; it must be closed. Throws
    /// ``StoreStorageError`` for `main` or a storage that cannot.
    func remove(_ store: StoreName) async throws {
        guard !store.isMain else { throw StoreStorageError.mainStays }
        switch base {
        case .memory(let journals):
            _ = journals.byStore.withLock { $0.removeValue(forKey: store) }
        case .journal:
            throw StoreStorageError.oneStoreOnly
        case .directory(_, let journals as any StoreJournals), .journals(let journals):
            try await journals.remove(store.rawValue)
        }
    }

    /// Closes the ``StoreJournals`` (the application's, or the data
    /// directory's ``SQLiteStores``), once every store is closed; a failure
    /// is logged (the stores' writes are done by then).
    func close(logger: Logger) async {
        let journals: any StoreJournals
        switch base {
        case .directory(_, let stores): journals = stores
        case .journals(let given): journals = given
        case .memory, .journal: return
        }
        do {
            try await journals.close()
        } catch {
            logger.warning("closing the stores' storage failed", metadata: ["error": "\(error)"])
        }
    }

    /// How this storage measures what each store holds.
    var footprint: StoreFootprint {
        switch base {
        case .directory(let directory, let stores): StoreFootprint(.directory(directory, stores))
        case .journal: StoreFootprint(.unknown)
        case .memory, .journals: StoreFootprint(.memory)
        }
    }
}

/// A store the server's storage cannot hold.
struct StoreStorageError: Error, CustomStringConvertible {
    let description: String

    /// The journal given to the server serves `main` only (`serve --postgres` today).
    static let oneStoreOnly = StoreStorageError(description: "this server's journal holds the store main only")
    /// `main` is never deleted.
    static let mainStays = StoreStorageError(description: "the store main cannot be deleted")
}

/// The memory journals of a server's stores, kept while it runs.
private final class MemoryJournals: Sendable {
    let byStore = Mutex<[StoreName: MemoryJournal]>([:])
}
