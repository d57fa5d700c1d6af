public import Logging
public import StateSyncJournal

/// Where a server keeps its stores' journals and snapshots: memory, a data
/// directory (SQLite), a journal per store from an application's storage
/// (``journals(_:open:)``), or one journal for `main` (``journal(_:open:)``).
public struct StateSyncStorage: Sendable, Hashable, CustomStringConvertible {
    private enum Base: Sendable, Hashable {
        case memory
        case directory(String)
        case journal(JournalOpener)
        case journals(JournalsOpener)
    }

    /// Opens a journal given from outside this module, compared by name.
    struct JournalOpener: Sendable, Hashable {
        let name: String
        let open: @Sendable (Logger, _ writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal

        static func == (lhs: JournalOpener, rhs: JournalOpener) -> Bool { lhs.name == rhs.name }
        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// Opens a ``StoreJournals`` given from outside this module, compared by name.
    struct JournalsOpener: Sendable, Hashable {
        let name: String
        let open: @Sendable (Logger) async throws -> any StoreJournals

        static func == (lhs: JournalsOpener, rhs: JournalsOpener) -> Bool { lhs.name == rhs.name }
        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    private let base: Base

    /// No persistence: the state starts empty and is lost at exit (`--memory`).
    public static let memory = StateSyncStorage(base: .memory)

    /// SQLite under `path` (created when missing, locked while served).
    public static func directory(_ path: String) -> StateSyncStorage {
        StateSyncStorage(base: .directory(path))
    }

    /// A journal that `open` opens at server start, for the store `main` only
    /// (any other store is `unavailable`). `name` appears in logs and
    /// ``description`` (never a password).
    ///
    /// ```swift
    /// configuration.storage = .journal("postgres statesync@db:5432/statesync") { logger in
    ///     try await PostgresJournal.open(location: location, logger: logger)
    /// }
    /// ```
    public static func journal(_ name: String, open: @escaping @Sendable (Logger) async throws -> any Journal) -> StateSyncStorage {
        StateSyncStorage(base: .journal(JournalOpener(name: name) { logger, _ in try await open(logger) }))
    }

    /// As ``journal(_:open:)``, also given `writeFailed`, called on each failed
    /// write attempt and counted in `statesync_journal_write_failures_total`.
    public static func journal(
        _ name: String, open: @escaping @Sendable (Logger, _ writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal
    ) -> StateSyncStorage {
        StateSyncStorage(base: .journal(JournalOpener(name: name, open: open)))
    }

    /// Every store's journal from one ``StoreJournals`` that `open` opens at
    /// server start, closed at shutdown after every store. `name` appears in
    /// logs and ``description`` (never a password).
    ///
    /// ```swift
    /// configuration.storage = .journals("postgres statesync@db:5432/statesync") { logger in
    ///     try await PostgresStores.open(location: location, logger: logger)
    /// }
    /// ```
    public static func journals(_ name: String, open: @escaping @Sendable (Logger) async throws -> any StoreJournals) -> StateSyncStorage {
        StateSyncStorage(base: .journals(JournalsOpener(name: name, open: open)))
    }

    /// Opens the ``StoreJournals`` given to ``journals(_:open:)``; `nil` for the other storages.
    var journalsOpener: (@Sendable (Logger) async throws -> any StoreJournals)? {
        if case .journals(let opener) = base { return opener.open }
        return nil
    }

    /// Opens the journal given to ``journal(_:open:)``; `nil` for the other storages.
    var journalOpener: (@Sendable (Logger, _ writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal)? {
        if case .journal(let opener) = base { return opener.open }
        return nil
    }

    /// The data directory, or `nil` in memory.
    public var directoryPath: String? {
        if case .directory(let path) = base { return path }
        return nil
    }

    /// `memory`, the directory path, or the given journal's name.
    public var description: String {
        switch base {
        case .memory: "memory"
        case .directory(let path): path
        case .journal(let opener): opener.name
        case .journals(let opener): opener.name
        }
    }
}
