import CoreMetrics
import Foundation
import Logging
import StateSyncJournal
import StateSyncProtocol
import StateSyncSQLite
import Synchronization

/// Where each store of a server keeps its journal, decided by the server's
/// ``StateSyncStorage``:
///
/// - a data directory: `main` in the directory itself (as before stores
///   existed), every other store in `stores/NAME/` under it, a data
///   directory of its own (its lock, its durable record);
/// - memory: one ``MemoryJournal`` per store, kept while the server runs,
///   so its stores never close when idle (closing would lose them);
/// - a journal of the application's (``StateSyncStorage/journal(_:open:)``,
///   `serve --postgres`): `main` only, for now.
struct StoreStorage: Sendable {
    private enum Base: Sendable {
        case memory(MemoryJournals)
        case directory(String)
        case journal(@Sendable (Logger, _ writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal)
    }

    private let base: Base
    private let retention: JournalRetention
    private let damagedJournal: DamagedJournalPolicy
    private let writeFailures: CoreMetrics.Counter

    /// The storage of `configuration`, counting failed writes in `writeFailures`.
    init(configuration: StateSyncServerConfiguration, writeFailures: CoreMetrics.Counter) {
        if let open = configuration.storage.journalOpener {
            base = .journal(open)
        } else if let directory = configuration.storage.directoryPath {
            base = .directory(directory)
        } else {
            base = .memory(MemoryJournals())
        }
        retention = configuration.retention
        damagedJournal = configuration.damagedJournal
        self.writeFailures = writeFailures
    }

    /// Whether an idle store may close: its journal keeps it (not memory).
    var closesIdleStores: Bool {
        if case .memory = base { return false }
        return true
    }

    /// Whether `store` has a journal already (a role that may not create
    /// stores may still open it).
    func exists(_ store: StoreName) -> Bool {
        switch base {
        case .memory(let journals): store.isMain || journals.byStore.withLock { $0[store] != nil }
        case .directory(let directory): store.isMain || FileManager.default.fileExists(atPath: Self.path(of: store, in: directory))
        case .journal: store.isMain
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
        case .directory(let directory):
            let path = Self.path(of: store, in: directory)
            if !store.isMain { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
            return try await SQLiteJournal.open(
                configuration: .init(directory: path, retention: retention, damagedJournal: damagedJournal),
                logger: logger, writeFailures: writeFailures)
        case .journal(let open):
            guard store.isMain else { throw StoreStorageError.oneStoreOnly }
            let writeFailures = writeFailures
            return try await open(logger) { writeFailures.increment() }
        }
    }

    /// The names of the stores this storage holds, `main` included, in order.
    func storedNames() -> [StoreName] {
        var names: Set<StoreName> = [.main]
        switch base {
        case .memory(let journals):
            names.formUnion(journals.byStore.withLock { Array($0.keys) })
        case .directory(let directory):
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/stores")) ?? []
            names.formUnion(entries.compactMap { try? StoreName($0) })
        case .journal:
            break
        }
        return names.sorted()
    }

    /// Removes what `store` stored; it must be closed.
    ///
    /// - Throws: ``StoreStorageError`` for `main` or a storage that cannot,
    ///   or the file system's error.
    func remove(_ store: StoreName) throws {
        guard !store.isMain else { throw StoreStorageError.mainStays }
        switch base {
        case .memory(let journals):
            _ = journals.byStore.withLock { $0.removeValue(forKey: store) }
        case .directory(let directory):
            let path = Self.path(of: store, in: directory)
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        case .journal:
            throw StoreStorageError.oneStoreOnly
        }
    }

    /// The data directory of `store` under the server's `directory`.
    static func path(of store: StoreName, in directory: String) -> String {
        store.isMain ? directory : "\(directory)/stores/\(store.rawValue)"
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
