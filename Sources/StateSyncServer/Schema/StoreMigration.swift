import Crypto
public import StateSyncCore
public import StateSyncJournal

/// Brings one store's stored history to the app's schema version while no
/// server runs it (`statesync migrate`), proving the result: the replay runs
/// twice, and the saved snapshot must read back with the same hash.
///
/// ```swift
/// let report = try await StoreMigration<Board>.migrate(journal, dryRun: false)
/// print(report.stateHash)   // sha256:3f1a…
/// ```
public enum StoreMigration<App: StateSyncApp> {
    /// What a migration found and did.
    public struct Report: Sendable, Hashable {
        /// The store's revision (the snapshot is taken there).
        public let revision: UInt64
        /// The oldest schema version among the snapshot and entries read;
        /// the app's when the store is current.
        public let oldestVersion: Int
        /// `sha256:` and the hex digest of the migrated state's bytes.
        public let stateHash: String
        /// Whether a snapshot of the app's version was written (not for a
        /// dry run, nor for a store already current).
        public let wroteSnapshot: Bool

        /// Whether the store was at the app's version already.
        public var wasCurrent: Bool { oldestVersion >= App.schemaVersion }
    }

    /// Migrates the store `journal` holds (see ``StoreMigration``); with
    /// `dryRun`, writes nothing.
    ///
    /// - Throws: ``StoreMigrationError`` when the proof fails.
    public static func migrate(_ journal: any Journal, dryRun: Bool) async throws -> Report {
        let first = try await RecoveredState<App>.restore(from: journal)
        let bytes = JSONSerializer().serialize(first.mirror.json)
        let oldest = first.migratedFrom ?? App.schemaVersion
        guard first.migratedFrom != nil else {
            return Report(revision: first.revision, oldestVersion: oldest, stateHash: hash(bytes), wroteSnapshot: false)
        }
        let again = JSONSerializer().serialize(try await RecoveredState<App>.restore(from: journal).mirror.json)
        guard again == bytes else { throw StoreMigrationError.notDeterministic(first: hash(bytes), second: hash(again)) }
        guard !dryRun else { return Report(revision: first.revision, oldestVersion: oldest, stateHash: hash(bytes), wroteSnapshot: false) }
        try await journal.saveSnapshot(JournalSnapshot(revision: first.revision, state: bytes, schemaVersion: App.schemaVersion))
        let stored = try await RecoveredState<App>.restore(from: journal)
        let readBack = JSONSerializer().serialize(stored.mirror.json)
        guard stored.migratedFrom == nil, stored.revision == first.revision, readBack == bytes else {
            throw StoreMigrationError.notReproduced(expected: hash(bytes), found: hash(readBack), revision: stored.revision)
        }
        return Report(revision: first.revision, oldestVersion: oldest, stateHash: hash(bytes), wroteSnapshot: true)
    }

    /// `sha256:` and the hex digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return "sha256:" + String(SHA256.hash(data: bytes).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }
}

/// Why a migration's proof failed; nothing was written, or (for
/// ``notReproduced(expected:found:revision:)``) the snapshot written does
/// not give back the migrated state.
public enum StoreMigrationError: Error, Equatable, CustomStringConvertible {
    /// Replaying the same stored history twice gave different states: a
    /// migration step is not deterministic.
    case notDeterministic(first: String, second: String)
    /// The store read back after the snapshot was written is not the state migrated.
    case notReproduced(expected: String, found: String, revision: UInt64)

    /// One sentence naming what differs.
    public var description: String {
        switch self {
        case let .notDeterministic(first, second):
            "replaying the stored history twice gave different states (\(first), then \(second)): a migration step is not deterministic; nothing was written"
        case let .notReproduced(expected, found, revision):
            "the store read back after the migration is \(found) at revision \(revision), not the migrated \(expected)"
        }
    }
}
