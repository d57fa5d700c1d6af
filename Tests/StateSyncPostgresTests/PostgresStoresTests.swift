import StateSyncJournal
import StateSyncPostgres
import TestProcessSupport
import Testing

/// ``PostgresStores``, a node's stores in one database, against a real
/// PostgreSQL (``TestPostgres``): each store's rows under an id of its own,
/// `main` where the one store of earlier versions was, stores reopened and
/// deleted, and other nodes' heads routed to the right store.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresStoresTests {
    @Test func everyRowOfAStoreIsKeyedByItsOwnID() async throws {
        try await TestPostgres.with { postgres in
            let stores = try await Self.open(postgres)
            // A store may be *named* default: it is not main.
            let names = ["main", "default", "team-1"]
            #expect(Set(names.map(PostgresStores.storeID(of:))).count == names.count)
            for (index, name) in names.enumerated() {
                let journal = try await stores.open(name, logger: JournalFixtures.logger, writeFailed: {})
                let count = UInt64(index + 1)
                try await journal.append(JournalBatch(entries: (1...count).map { JournalFixtures.entry($0, writer: name) }))
                try await journal.saveSnapshot(JournalSnapshot(revision: count, state: Array(name.utf8)))
                try await journal.close()
            }
            for (index, name) in names.enumerated() {
                let id = PostgresStores.storeID(of: name)
                for table in ["statesync_journal", "statesync_outcomes"] {
                    let rows = try await PostgresQueries.text("SELECT count(*)::text FROM \(table) WHERE store_id = '\(id)'", on: postgres)
                    #expect(rows == "\(index + 1)", "\(table) of \(name)")
                }
                let writers = try await PostgresQueries.texts(
                    "SELECT DISTINCT convert_from(action, 'UTF8') FROM statesync_journal WHERE store_id = '\(id)'", on: postgres)
                #expect(writers == [#"{"type":"increment","counter":"\#(name)"}"#], "\(name)'s rows hold only its actions")
                let snapshot = try await PostgresQueries.text(
                    "SELECT convert_from(state, 'UTF8') FROM statesync_snapshots WHERE store_id = '\(id)'", on: postgres)
                #expect(snapshot == name)
            }
            #expect(try await PostgresQueries.texts("SELECT store_id FROM statesync_stores ORDER BY store_id", on: postgres)
                == ["default", "store:default", "store:team-1"])
            #expect(stores.names().sorted() == ["default", "main", "team-1"])
            try await stores.close()
        }
    }

    @Test func aDatabaseOfOneStoreOpensWithItsDataAsMain() async throws {
        try await TestPostgres.with { postgres in
            // Written as before there were several stores: one PostgresJournal on its default store.
            let legacy = try await JournalFixtures.open(postgres)
            try await legacy.append(JournalBatch(entries: (1...3).map { JournalFixtures.entry($0) }))
            let epoch = legacy.epoch
            try await legacy.close()

            let stores = try await Self.open(postgres)
            #expect(stores.names() == ["main"])
            let main = try await stores.open("main", logger: JournalFixtures.logger, writeFailed: {})
            #expect(main.epoch == epoch)
            #expect(main.lastRevision == 3)
            #expect(try await main.entries(from: 1, through: 3) == (1...3).map { JournalFixtures.entry($0) })
            #expect(try await main.outcome(clientID: "c-1", actionID: "a2") == .accepted(revision: 2))
            try await main.close()
            try await stores.close()
        }
    }

    @Test func aClosedStoreReopensAsItWasAndRemovingItDeletesEveryRow() async throws {
        try await TestPostgres.with { postgres in
            let stores = try await Self.open(postgres)
            let first = try await stores.open("room", logger: JournalFixtures.logger, writeFailed: {})
            try await first.append(JournalBatch(entries: (1...4).map { JournalFixtures.entry($0) }))
            try await first.saveSnapshot(JournalSnapshot(revision: 4, state: Array("four".utf8)))
            try await first.close()
            #expect(stores.exists("room"))

            let again = try await stores.open("room", logger: JournalFixtures.logger, writeFailed: {})
            #expect(again.epoch == first.epoch)
            #expect(again.lastRevision == 4)
            #expect(try await again.latestSnapshot() == JournalSnapshot(revision: 4, state: Array("four".utf8)))
            try await again.close()

            try await stores.remove("room")
            #expect(!stores.exists("room"))
            for table in ["statesync_stores", "statesync_journal", "statesync_snapshots", "statesync_outcomes"] {
                let rows = try await PostgresQueries.text(
                    "SELECT count(*)::text FROM \(table) WHERE store_id = 'store:room'", on: postgres)
                #expect(rows == "0", "\(table) still holds the deleted store's rows")
            }
            await #expect(throws: JournalError.self) { try await stores.remove("main") }
            // Opened again, it is a new, empty store.
            let fresh = try await stores.open("room", logger: JournalFixtures.logger, writeFailed: {})
            #expect(fresh.lastRevision == 0)
            #expect(fresh.epoch != first.epoch)
            try await fresh.close()
            try await stores.close()
        }
    }

    @Test func anotherNodesWritesReachTheJournalOfTheirStoreOnly() async throws {
        try await TestPostgres.with { postgres in
            // Notifications only: polling would take an hour.
            var configuration = PostgresStores.Configuration(writerConnections: 2)
            configuration.journal.pollInterval = .seconds(3_600)
            let writing = try await Self.open(postgres, configuration)
            let following = try await Self.open(postgres, configuration)
            let (hints, hinted) = AsyncStream.makeStream(of: String.self)
            var followers: [any Journal] = []
            for name in ["x", "y"] {
                let journal = try #require(try await following.open(name, logger: JournalFixtures.logger, writeFailed: {}) as? PostgresJournal)
                journal.follow { head in hinted.yield("\(name) \(head)") }
                followers.append(journal)
            }
            let x = try await writing.open("x", logger: JournalFixtures.logger, writeFailed: {})
            try await x.append(JournalBatch(entries: [JournalFixtures.entry(1)]))
            let y = try await writing.open("y", logger: JournalFixtures.logger, writeFailed: {})
            try await y.append(JournalBatch(entries: [JournalFixtures.entry(1), JournalFixtures.entry(2)]))
            var heard: [String] = []
            for await hint in hints {
                if !heard.contains(hint) { heard.append(hint) }
                if heard.count == 2 { break }
            }
            // Each store's journal hears its own head; the writes of one store never move the other's.
            #expect(Set(heard) == ["x 1", "y 2"])
            for journal in followers + [x, y] { try await journal.close() }
            try await writing.close()
            try await following.close()
        }
    }

    /// The stores of `postgres`, as a node opens them.
    static func open(
        _ postgres: TestPostgres, _ configuration: PostgresStores.Configuration = PostgresStores.Configuration(writerConnections: 2)
    ) async throws -> PostgresStores {
        try await PostgresStores.open(
            location: try PostgresLocation(url: postgres.url), configuration: configuration, logger: JournalFixtures.logger)
    }
}
