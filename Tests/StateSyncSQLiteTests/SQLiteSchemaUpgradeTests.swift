import Foundation
import GRDB
import StateSyncCore
import StateSyncJournal
import StateSyncJournalTesting
import TestProcessSupport
import Testing
@testable import StateSyncSQLite

/// Files written before journals recorded each row's app schema version
/// (`user_version` 1 and 1,001) open: their rows read as version 1, the
/// file is brought to the current version, and new rows keep theirs.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteSchemaUpgradeTests {
    /// `statesync.sqlite` as the version before wrote it, with two entries and a snapshot at 1.
    static let oneStoreFile = """
        CREATE TABLE statesync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE journal (
            revision INTEGER PRIMARY KEY, time_bits INTEGER NOT NULL, client_id TEXT, action_id TEXT, action BLOB NOT NULL
        );
        CREATE TABLE outcomes (
            seq INTEGER PRIMARY KEY, client_id TEXT NOT NULL, action_id TEXT NOT NULL, revision INTEGER, code TEXT, message TEXT,
            UNIQUE (client_id, action_id)
        );
        CREATE TABLE snapshots (revision INTEGER PRIMARY KEY, state BLOB NOT NULL);
        PRAGMA application_id = 1397979502;
        PRAGMA user_version = 1;
        INSERT INTO statesync_meta (key, value) VALUES ('epoch', 'e-00000000000000000000000000000001');
        INSERT INTO journal VALUES (1, 0, 'c-1', 'a1', CAST('{"type":"say","text":"hi"}' AS BLOB));
        INSERT INTO journal VALUES (2, 0, 'c-1', 'a2', CAST('{"type":"say","text":"ho"}' AS BLOB));
        INSERT INTO outcomes (client_id, action_id, revision) VALUES ('c-1', 'a1', 1), ('c-1', 'a2', 2);
        INSERT INTO snapshots VALUES (1, CAST('{"chat":["hi"]}' AS BLOB));
        """

    /// `stores.sqlite` as the version before wrote it, with store `team` at revision 1.
    static let storesFile = """
        CREATE TABLE statesync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE stores (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, epoch TEXT NOT NULL);
        CREATE TABLE journal (
            store_id INTEGER NOT NULL, revision INTEGER NOT NULL, time_bits INTEGER NOT NULL, client_id TEXT, action_id TEXT,
            action BLOB NOT NULL, PRIMARY KEY (store_id, revision)
        ) WITHOUT ROWID;
        CREATE TABLE outcomes (
            seq INTEGER PRIMARY KEY, store_id INTEGER NOT NULL, client_id TEXT NOT NULL, action_id TEXT NOT NULL,
            revision INTEGER, code TEXT, message TEXT, UNIQUE (store_id, client_id, action_id)
        );
        CREATE TABLE snapshots (
            store_id INTEGER NOT NULL, revision INTEGER NOT NULL, state BLOB NOT NULL, PRIMARY KEY (store_id, revision)
        );
        PRAGMA application_id = 1397979502;
        PRAGMA user_version = 1001;
        INSERT INTO statesync_meta (key, value) VALUES ('epoch', 'e-00000000000000000000000000000002'), ('commits', '1');
        INSERT INTO stores VALUES (1, 'team', 'e-00000000000000000000000000000003');
        INSERT INTO journal VALUES (1, 1, 0, 'c-1', 'a1', CAST('{"type":"say","text":"hi"}' AS BLOB));
        INSERT INTO snapshots VALUES (1, 1, CAST('{"chat":["hi"]}' AS BLOB));
        """

    /// Writes `sql` into a new SQLite file at `path` (its directory made first).
    static func write(_ sql: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// The file's `PRAGMA user_version`.
    static func userVersion(of path: String) throws -> Int {
        try JournalInspection.reading(path) { try Int.fetchOne($0, sql: "PRAGMA user_version") ?? 0 }
    }

    @Test func aFileOfOneStoreFromTheVersionBeforeOpensWithItsRowsAtVersionOne() async throws {
        try await withTemporaryDirectory { directory in
            try Self.write(Self.oneStoreFile, to: directory + "/statesync.sqlite")
            let journal = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger)
            #expect(journal.epoch == "e-00000000000000000000000000000001")
            #expect(try await journal.entries(from: 1, through: 2).map(\.schemaVersion) == [1, 1])
            #expect(try await journal.latestSnapshot()?.schemaVersion == 1)
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a2") == .accepted(revision: 2))
            var next = JournalSamples.entry(3)
            next.schemaVersion = 2
            try await journal.append(JournalBatch(entries: [next]))
            #expect(try await journal.entries(from: 1, through: 3).map(\.schemaVersion) == [1, 1, 2])
            try await journal.close()
            #expect(try Self.userVersion(of: directory + "/statesync.sqlite") == JournalFileKind.oneStore.schemaVersion)
        }
    }

    @Test func theStoresFileFromTheVersionBeforeOpensWithItsRowsAtVersionOne() async throws {
        try await withTemporaryDirectory { directory in
            try Self.write(Self.storesFile, to: directory + "/stores.sqlite")
            let stores = try await openStores(directory)
            let team = try await stores.journal("team")
            #expect(team.epoch == "e-00000000000000000000000000000003")
            #expect(try await team.entries(from: 1, through: 1).map(\.schemaVersion) == [1])
            #expect(try await team.latestSnapshot()?.schemaVersion == 1)
            try await team.saveSnapshot(JournalSnapshot(revision: 1, state: Array("{}".utf8), schemaVersion: 2))
            #expect(try await team.latestSnapshot()?.schemaVersion == 2)
            try await team.close()
            try await stores.close()
            #expect(try Self.userVersion(of: directory + "/stores.sqlite") == JournalFileKind.stores.schemaVersion)
        }
    }

    @Test func aFileOfAnUnknownVersionIsStillRefused() async throws {
        try await withTemporaryDirectory { directory in
            try Self.write(Self.oneStoreFile.replacingOccurrences(of: "user_version = 1;", with: "user_version = 7;"),
                           to: directory + "/statesync.sqlite")
            await #expect(throws: JournalError.self) {
                _ = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger)
            }
        }
    }

    @Test func verifyReportsTheVersionsItFindsAndAFileThatPredatesThem() async throws {
        try await withTemporaryDirectory { directory in
            try Self.write(Self.oneStoreFile, to: directory + "/statesync.sqlite")
            // Read-only: the file of the version before is reported as it is, not upgraded.
            #expect(SQLiteJournal.verify(directory: directory).findings.contains("app schema versions: 1 (the file predates recording them)"))
            #expect(try Self.userVersion(of: directory + "/statesync.sqlite") == 1)

            let journal = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger)
            var next = JournalSamples.entry(3)
            next.schemaVersion = 2
            try await journal.append(JournalBatch(entries: [next]))
            try await journal.saveSnapshot(JournalSnapshot(revision: 3, state: Array("{}".utf8), schemaVersion: 2))
            try await journal.close()
            let report = SQLiteJournal.verify(directory: directory)
            #expect(report.findings.contains("app schema versions: entries version 1 ×2, version 2 ×1; snapshots version 1 ×1, version 2 ×1"),
                    "\(report.findings)")
            #expect(report.isIntact, "\(report.problems)")
        }
    }
}
