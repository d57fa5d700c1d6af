import Foundation
import StateSyncJournal
import StateSyncPostgres
import TestProcessSupport
import Testing

/// Which clientIds' outcomes a store keeps in PostgreSQL
/// (`PostgresOutcomeClients`): one rule over the shared tables, applied by
/// every node's journal alike, two journals on one store standing for two nodes.
@Suite(.timeLimit(.minutes(2)))
struct PostgresOutcomeClientsTests {
    @Test func aClientAnotherNodeUsesKeepsItsOutcomesWhenOneNodeForgetsIt() async throws {
        try await TestPostgres.with { postgres in
            let (first, second) = (try await JournalFixtures.open(postgres), try await JournalFixtures.open(postgres))
            try await second.append(JournalBatch(entries: [JournalFixtures.entry(1, client: "x")]))
            // The first node's table forgets x, which it last saw long ago.
            first.caughtUp(through: 1)
            try await first.append(JournalBatch(entries: [JournalFixtures.entry(2, client: "z")], forgottenClients: ["x"]))
            #expect(try await first.outcome(clientID: "x", actionID: "a1") == .accepted(revision: 1))
            try await first.close()
            try await second.close()
        }
    }

    @Test func quietClientsBeyondTheBoundAreForgottenWhicheverNodeRecordedThem() async throws {
        try await TestPostgres.with { postgres in
            let retention = OutcomeRetention(window: .zero, maxClients: 2)
            let first = try await JournalFixtures.open(postgres, outcomeRetention: retention)
            let second = try await JournalFixtures.open(postgres, outcomeRetention: retention)
            try await first.append(JournalBatch(entries: [JournalFixtures.entry(1, client: "x")]))
            second.caughtUp(through: 1)
            try await second.append(JournalBatch(entries: [JournalFixtures.entry(2, client: "y")]))
            // x is used again, through the other node, after y: y is now the least recently used.
            try await second.append(JournalBatch(
                rejections: [JournalRejection(clientID: "x", actionID: "r", code: "not_found", message: "no")]))
            #expect(try await Self.clients(on: postgres) == ["x", "y"])
            first.caughtUp(through: 2)
            try await first.append(JournalBatch(entries: [JournalFixtures.entry(3, client: "z")]))
            #expect(try await Self.clients(on: postgres) == ["x", "z"])
            #expect(try await first.outcome(clientID: "y", actionID: "a2") == nil)
            #expect(try await first.outcome(clientID: "x", actionID: "a1") == .accepted(revision: 1))
            #expect(try await first.outcomeClients() == ["x", "z"])
            try await first.close()
            try await second.close()
        }
    }

    @Test func clientsUsedWithinTheWindowStayBeyondTheBound() async throws {
        try await TestPostgres.with { postgres in
            let retention = OutcomeRetention(window: .seconds(600), maxClients: 1)
            let journal = try await JournalFixtures.open(postgres, outcomeRetention: retention)
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(1, client: "x")]))
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(2, client: "y")]))
            #expect(try await Self.clients(on: postgres) == ["x", "y"])
            #expect(try await journal.outcome(clientID: "x", actionID: "a1") == .accepted(revision: 1))
            try await journal.close()
        }
    }

    @Test func anOlderDatabaseMigratesWithItsClientsCountedAsUsed() async throws {
        try await TestPostgres.with { postgres in
            let journal = try await JournalFixtures.open(postgres)
            try await journal.append(JournalBatch(entries: [JournalFixtures.entry(1, client: "x")]))
            try await journal.close()
            // The database as version 2 left it.
            try await PostgresQueries.run("DROP TABLE statesync_outcome_clients", on: postgres)
            try await PostgresQueries.run("DROP TABLE statesync_leases, statesync_cluster", on: postgres)
            try await PostgresQueries.run("ALTER TABLE statesync_journal DROP COLUMN schema_version", on: postgres)
            try await PostgresQueries.run("ALTER TABLE statesync_snapshots DROP COLUMN schema_version", on: postgres)
            try await PostgresQueries.run("UPDATE statesync_schema SET version = 2", on: postgres)

            let reopened = try await JournalFixtures.open(postgres)
            #expect(try await PostgresQueries.text("SELECT version::text FROM statesync_schema", on: postgres) == "5")
            #expect(try await Self.clients(on: postgres) == ["x"])
            #expect(try await reopened.outcome(clientID: "x", actionID: "a1") == .accepted(revision: 1))
            // Rows written before versions were recorded read as the app's first version.
            #expect(try await reopened.entries(from: 1, through: 1).map(\.schemaVersion) == [1])
            try await reopened.close()
        }
    }

    /// The default store's clientIds with outcomes, by name.
    private static func clients(on postgres: TestPostgres) async throws -> [String] {
        try await PostgresQueries.texts(
            "SELECT client_id FROM statesync_outcome_clients WHERE store_id = 'default' ORDER BY client_id", on: postgres)
    }
}
