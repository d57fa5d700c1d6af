import TestProcessSupport
import Foundation
import GRDB
import StateSyncCore
import StateSyncJournalTesting
import Testing
@testable import StateSyncSQLite
import StateSyncJournal

@Suite(.timeLimit(.minutes(1)))
struct SQLiteJournalTests {
    private func open(_ directory: String) async throws -> SQLiteJournal {
        try await SQLiteJournal.open(
            configuration: .init(directory: directory), logger: quietLogger)
    }

    @Test func aFreshDirectoryIsCreatedWithANewEpoch() async throws {
        try await withTemporaryDirectory { root in
            let directory = root + "/nested/data"
            let journal = try await open(directory)
            #expect(FileManager.default.fileExists(atPath: directory + "/statesync.sqlite"))
            #expect(journal.path == directory + "/statesync.sqlite")
            #expect(journal.epoch.hasPrefix("e-"))
            #expect(journal.epoch.count == 34)
            let digits = journal.epoch.dropFirst(2)
            #expect(digits.allSatisfy { $0.isHexDigit })
            try await journal.close()

            let other = try await open(root + "/other")
            #expect(other.epoch != journal.epoch)
            try await other.close()
        }
    }

    @Test func everythingSurvivesReopeningWithTheSameEpoch() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await open(directory)
            let epoch = first.epoch
            let rejection = JournalRejection(clientID: "c-1", actionID: "x", code: "invalid_action", message: "empty")
            try await first.append(JournalBatch(entries: (1...5).map { JournalSamples.entry($0) }, rejections: [rejection]))
            try await first.saveSnapshot(JournalSnapshot(revision: 5, state: Array(#"{"hits":5}"#.utf8)))
            try await first.close()

            let second = try await open(directory)
            #expect(second.epoch == epoch)
            #expect(second.lastRevision == 5)
            #expect(try await second.entries(from: 1, through: 5) == (1...5).map { JournalSamples.entry($0) })
            #expect(try await second.outcome(clientID: "c-1", actionID: "x") == .rejected(code: "invalid_action", message: "empty"))
            #expect(try await second.outcome(clientID: "c-2", actionID: "a5") == .accepted(revision: 5))
            #expect(try await second.latestSnapshot() == JournalSnapshot(revision: 5, state: Array(#"{"hits":5}"#.utf8)))
            try await second.append(JournalSamples.batch(6...6))
            try await second.close()
        }
    }

    @Test(arguments: [
        JournalSamples.time,
        Date(timeIntervalSinceReferenceDate: 0.000_000_000_1),
        Date(timeIntervalSince1970: 1_795_000_000.999_999_999),
        Date(timeIntervalSinceReferenceDate: -1.5e9 - 0.3),
        Date.distantFuture,
        Date(timeIntervalSinceReferenceDate: .ulpOfOne),
    ])
    func metaTimeComesBackBitForBit(time: Date) async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await open(directory)
            let written = JournalEntry(meta: Meta(revision: 1, clientID: nil, time: time), action: Array("{}".utf8))
            try await journal.append(JournalBatch(entries: [written]))
            try await journal.close()
            let reopened = try await open(directory)
            let read = try #require(try await reopened.entries(from: 1, through: 1).first)
            #expect(read.meta.time.timeIntervalSinceReferenceDate.bitPattern == time.timeIntervalSinceReferenceDate.bitPattern)
            #expect(read == written)
            try await reopened.close()
        }
    }

    @Test func commitsFsyncTheWriteAheadLog() async throws {
        try await withTemporaryDirectory { directory in
            let journal = try await open(directory)
            let (mode, synchronous) = try journal.withWriter { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(mode == "wal")
            #expect(synchronous == 2)  // FULL: the WAL is fsynced at every commit.
            try await journal.close()
        }
    }

    @Test func aSecondOpenerIsRefusedUntilTheFirstCloses() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await open(directory)
            let error = await #expect(throws: JournalError.self) { try await open(directory) }
            #expect(error?.isLocked == true)
            #expect(error?.description.contains(directory) == true)
            #expect(error?.description.contains("another StateSync server") == true)
            try await first.close()
            let second = try await open(directory)
            try await second.close()
        }
    }

    @Test func aDirectoryUnderARegularFileIsReportedWithItsPath() async throws {
        try await withTemporaryDirectory { root in
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            let file = root + "/plain-file"
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            let error = await #expect(throws: JournalError.self) { try await open(file + "/data") }
            #expect(error?.description == "cannot create the data directory \(file)/data: \(file) exists and is not a directory")
        }
    }

    @Test func anUncreatableDirectoryNamesTheSystemError() async throws {
        let error = await #expect(throws: JournalError.self) { try await open("/proc/statesync-no-such/data") }
        #expect(error?.description.hasPrefix("cannot create the data directory /proc/statesync-no-such/data: /proc/statesync-no-such:") == true)
    }

    @Test func aFileThatIsNotADatabaseIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/statesync.sqlite"
            try Data(repeating: 0x42, count: 4_096).write(to: URL(fileURLWithPath: path))
            let error = await #expect(throws: JournalError.self) { try await open(directory) }
            #expect(error?.description.hasPrefix("\(path) is not a StateSync journal: file is not a database") == true)
            // The lock was released: a corrected directory opens.
            try FileManager.default.removeItem(atPath: path)
            try await open(directory).close()
        }
    }

    @Test(arguments: [
        ("CREATE TABLE users (id INTEGER PRIMARY KEY)", "not created by StateSync"),
        ("PRAGMA application_id = 1234", "another application (application_id 1234)"),
    ])
    func aForeignSQLiteDatabaseIsRefused(setup: String, expected: String) async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let path = directory + "/statesync.sqlite"
            let foreign = try DatabaseQueue(path: path)
            try await foreign.write { try $0.execute(sql: setup) }
            try foreign.close()
            let error = await #expect(throws: JournalError.self) { try await open(directory) }
            #expect(error?.description.hasPrefix("\(path) is not a StateSync journal") == true)
            #expect(error?.description.contains(expected) == true)
        }
    }

    @Test func aNewerSchemaVersionIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            try await open(directory).close()
            let path = directory + "/statesync.sqlite"
            let database = try DatabaseQueue(path: path)
            try await database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA user_version = 99") }
            try database.close()
            let error = await #expect(throws: JournalError.self) { try await open(directory) }
            #expect(error?.description == "\(path) has journal schema version 99, which this version of StateSync cannot read")
        }
    }
}
