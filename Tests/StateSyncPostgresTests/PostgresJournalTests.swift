import Foundation
import StateSyncCore
import StateSyncJournal
import StateSyncPostgres
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// ``PostgresJournal`` against a real PostgreSQL of the test's own
/// (``TestPostgres``): what it stores, and what it keeps across reopening.
@Suite(.timeLimit(.minutes(2)))
struct PostgresJournalTests {
    @Test func aJournalReleasedWithoutClosingClosesItsConnections() async throws {
        try await TestPostgres.with { postgres in
            let connections = """
                SELECT count(*)::text FROM pg_stat_activity WHERE datname = '\(TestPostgres.database)' AND pid <> pg_backend_pid()
                """
            do {
                let journal = try await JournalFixtures.open(postgres)
                try await journal.append(JournalBatch(entries: [JournalFixtures.entry(1)]))
                #expect(try await PostgresQueries.text(connections, on: postgres) != "0")
            }   // released here, as a caller's error path would, never closed
            #expect(try await eventually { try await PostgresQueries.text(connections, on: postgres) == "0" })
        }
    }

    @Test func storesEntriesOutcomesAndSnapshotsAcrossReopening() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres)
            #expect(journal.lastRevision == 0)
            #expect(journal.epoch.hasPrefix("e-") && journal.epoch.count == 34)
            let entries = (1...3).map { JournalFixtures.entry($0) } + [JournalFixtures.entry(4, client: nil, actionID: nil)]
            try await journal.append(JournalBatch(entries: Array(entries[0..<2])))
            try await journal.append(JournalBatch(
                entries: Array(entries[2...]),
                rejections: [JournalRejection(clientID: "c-1", actionID: "bad", code: "not_found", message: "no todo nope")]))
            try await journal.saveSnapshot(JournalSnapshot(revision: 3, state: Array(#"{"n":3}"#.utf8)))
            try await journal.close()

            let reopened = try await JournalFixtures.open(postgres)
            #expect(reopened.epoch == journal.epoch)
            #expect(reopened.lastRevision == 4)
            #expect(try await reopened.entries(from: 1, through: 10) == entries)
            #expect(try await reopened.outcome(clientID: "c-1", actionID: "a2") == .accepted(revision: 2))
            #expect(try await reopened.outcome(clientID: "c-1", actionID: "bad") == .rejected(code: "not_found", message: "no todo nope"))
            #expect(try await reopened.outcome(clientID: "c-1", actionID: "a9") == nil)
            #expect(try await reopened.latestSnapshot() == JournalSnapshot(revision: 3, state: Array(#"{"n":3}"#.utf8)))
            #expect(try await reopened.oldestRevision() == 1)
            let recovery = try await reopened.recovery(pageSize: 2)
            var replayed: [JournalEntry] = []
            for try await entry in recovery.entries { replayed.append(entry) }
            #expect(replayed == [entries[3]])
            try await reopened.close()
            await #expect(throws: JournalError.self) { try await reopened.outcomeClients() }
        }
    }

    @Test func trimsOutcomesPerClient() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres)
            let first = (1...4).map { JournalFixtures.entry($0, client: "c-\($0 % 2)") }
            try await journal.append(JournalBatch(entries: first))
            #expect(try await journal.outcomeClients() == ["c-1", "c-0"])
            // c-1 keeps its newest outcome; c-0's are not c-1's to push out.
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(5, client: "c-0")], outcomeTrims: ["c-1": 1]))
            #expect(try await journal.outcome(clientID: "c-0", actionID: "a2") == .accepted(revision: 2))
            #expect(try await journal.outcome(clientID: "c-0", actionID: "a5") == .accepted(revision: 5))
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a1") == nil)
            #expect(try await journal.outcome(clientID: "c-1", actionID: "a3") == .accepted(revision: 3))
            #expect(try await journal.outcomeClients() == ["c-1", "c-0"])
            try await journal.close()
        }
    }

    @Test func retentionDropsEntriesAndSnapshotsBehindTheNewestSnapshot() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres, retention: JournalRetention(revisions: 4, olderSnapshots: 0))
            try await journal.append(JournalBatch(entries: (1...20).map { JournalFixtures.entry($0) }))
            for revision in [5, 10, 15, 20] as [UInt64] {
                try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: Array("\(revision)".utf8)))
            }
            // Cutoff 20 - 4 = 16: entries are kept from the snapshot at or below it (15).
            #expect(try await journal.oldestRevision() == 15)
            #expect(try await journal.snapshotRevisions() == [15, 20])
            #expect(try await journal.entries(from: 1, through: 20).map(\.revision) == Array(15...20))
            await #expect(throws: JournalError.self) {
                try await journal.saveSnapshot(JournalSnapshot(revision: 21, state: []))
            }
            try await journal.close()
        }
    }

    @Test func refusesASchemaNewerThanItKnows() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres)
            try await journal.close()
            try await PostgresQueries.run("UPDATE statesync_schema SET version = 99", on: postgres)
            let error = await #expect(throws: JournalError.self) { try await JournalFixtures.open(postgres) }
            #expect(error?.description.contains("has journal schema version 99") == true, "\(String(describing: error))")
        }
    }
}
