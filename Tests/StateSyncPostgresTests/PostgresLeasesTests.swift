import StateSyncJournal
import StateSyncPostgres
import Synchronization
import TestProcessSupport
import Testing

/// One writer per store (``PostgresLeases``) against a real PostgreSQL:
/// the first node to open a store takes its lease and the others are told
/// where it is; a lease given up or left to expire is taken by another
/// node; a node that cannot renew stops counting the lease as its own
/// once it may have expired.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresLeasesTests {
    /// A short lease, so that a test waits for expiries of 0.6 s.
    private static let leaseDuration = Duration.milliseconds(600)

    @Test func theFirstNodeToOpenAStoreWritesItAndTheOthersAreToldWhere() async throws {
        try await TestPostgres.with { postgres in
            let (first, second) = (try await Self.node("n-first", on: postgres), try await Self.node("n-second", on: postgres))
            let (firstJournal, secondJournal, _) = try await Self.firstWritesTeam(first, second)
            #expect(try await Self.lease(of: "team", on: postgres) == "n-first 1")
            // Another store goes to whichever node opens it first.
            let (otherJournal, otherWriters) = try await Self.watch("other", on: second)
            #expect(await otherWriters.next(within: .seconds(10)) == .this)
            for journal in [firstJournal, secondJournal, otherJournal] { try await journal.close() }
            try await first.close()
            try await second.close()
            #expect(try await PostgresQueries.texts("SELECT store_id FROM statesync_leases WHERE expires_at > now()", on: postgres) == [],
                    "closing gives leases up")
        }
    }

    @Test func aStoreClosedOnItsWriterIsTakenByAnotherNodeWithItOpen() async throws {
        try await TestPostgres.with { postgres in
            let (first, second) = (try await Self.node("n-first", on: postgres), try await Self.node("n-second", on: postgres))
            let (firstJournal, secondJournal, secondWriters) = try await Self.firstWritesTeam(first, second)
            try await firstJournal.close()
            #expect(await secondWriters.next(within: .seconds(10)) == .this)
            #expect(try await Self.lease(of: "team", on: postgres) == "n-second 2", "a new holder, a new term")
            try await secondJournal.close()
            try await first.close()
            try await second.close()
        }
    }

    @Test func aLeaseLeftToExpireIsTakenAndAHolderWhoseLeaseWasTakenIsTold() async throws {
        try await TestPostgres.with { postgres in
            let first = try await Self.node("n-first", on: postgres)
            // The store exists, and its lease is a dead node's, which stopped renewing an hour ago.
            let store = try await first.open("team", logger: JournalFixtures.logger, writeFailed: {})
            try await store.close()
            try await PostgresQueries.run("""
                INSERT INTO statesync_leases (store_id, node_id, address, term, expires_at)
                VALUES ('store:team', 'n-dead', NULL, 7, now() - interval '1 hour')
                """, on: postgres)
            let (journal, writers) = try await Self.watch("team", on: first)
            #expect(await writers.next(within: .seconds(10)) == .this)
            #expect(try await Self.lease(of: "team", on: postgres) == "n-first 8")
            // A node that took the lease while this one was paused past its expiry: the former holder hears so at its next round.
            try await PostgresQueries.run(
                "UPDATE statesync_leases SET node_id = 'n-other', address = '10.0.0.3:8080', term = 9, expires_at = now() + interval '1 hour'",
                on: postgres)
            #expect(await writers.next(within: .seconds(10)) == .other(node: "n-other", address: "10.0.0.3:8080"))
            try await journal.close()
            try await first.close()
            #expect(try await Self.lease(of: "team", on: postgres) == "n-other 9", "a lease that is not its own is left alone")
        }
    }

    @Test func aHolderThatCannotRenewStopsCountingTheLeaseAsItsOwnOnceItMayHaveExpired() async throws {
        try await TestPostgres.with { postgres in
            let node = try await Self.node("n-first", on: postgres)
            let (journal, writers) = try await Self.watch("team", on: node)
            #expect(await writers.next(within: .seconds(10)) == .this)
            let started = ContinuousClock.now
            let lost = try await PostgresQueries.whileHolding("LOCK TABLE statesync_leases IN ACCESS EXCLUSIVE MODE", on: postgres) {
                await writers.next(within: .seconds(10))
            }
            #expect(lost == .unknown)
            #expect(ContinuousClock.now - started >= Self.leaseDuration / 2, "given up before the lease could have expired")
            // Renewals get through again: the lease, still its own in the table, is back.
            #expect(await writers.next(within: .seconds(10)) == .this)
            try await journal.close()
            try await node.close()
        }
    }

    /// `first` and then `second` open the store `team`: `first` takes its
    /// lease, `second` is told so. Returns both journals and what `second` hears next.
    private static func firstWritesTeam(
        _ first: PostgresStores, _ second: PostgresStores
    ) async throws -> (first: any SharedJournal, second: any SharedJournal, secondWriters: Writers) {
        let (firstJournal, firstWriters) = try await watch("team", on: first)
        #expect(await firstWriters.next(within: .seconds(10)) == .this)
        let (secondJournal, secondWriters) = try await watch("team", on: second)
        #expect(await secondWriters.next(within: .seconds(10)) == .other(node: "n-first", address: "127.0.0.1:1001"))
        return (firstJournal, secondJournal, secondWriters)
    }

    /// The node `id` (`n-first` or `n-second`), advertising `127.0.0.1:1001` or `127.0.0.1:1002`.
    private static func node(_ id: String, on postgres: TestPostgres) async throws -> PostgresStores {
        var node = PostgresNode(id: id, address: id == "n-first" ? "127.0.0.1:1001" : "127.0.0.1:1002")
        node.leaseDuration = leaseDuration
        var configuration = PostgresStores.Configuration(writerConnections: 1)
        configuration.journal.node = node
        return try await PostgresStores.open(
            location: try PostgresLocation(url: postgres.url), configuration: configuration, logger: JournalFixtures.logger)
    }

    /// `store`'s journal on `node`, and the writers it is told of.
    private static func watch(_ store: String, on node: PostgresStores) async throws -> (any SharedJournal, Writers) {
        let journal = try #require(try await node.open(store, logger: JournalFixtures.logger, writeFailed: {}) as? any SharedJournal)
        let writers = Writers()
        journal.watchWriter { writers.tell($0) }
        return (journal, writers)
    }

    /// `store`'s lease row: its node and term.
    private static func lease(of store: String, on postgres: TestPostgres) async throws -> String? {
        try await PostgresQueries.text(
            "SELECT node_id || ' ' || term FROM statesync_leases WHERE store_id = '\(PostgresStores.storeID(of: store))'", on: postgres)
    }
}

/// The writers a journal was told of, in order.
private final class Writers: Sendable {
    private struct State {
        var told: [StoreWriter] = []
        var waiter: (id: Int, continuation: CheckedContinuation<StoreWriter?, Never>)?
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Records `writer`, handing it to a waiting ``next(within:skipping:)``.
    func tell(_ writer: StoreWriter) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else { state.told.append(writer); return nil as CheckedContinuation<StoreWriter?, Never>? }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: writer)
    }

    /// The next writer told but `skipping`, or `nil` when none comes within `limit`.
    func next(within limit: Duration, skipping skipped: StoreWriter? = nil) async -> StoreWriter? {
        let deadline = ContinuousClock.now + limit
        while true {
            let writer = await next(until: deadline)
            if writer == nil || writer != skipped { return writer }
        }
    }

    private func next(until deadline: ContinuousClock.Instant) async -> StoreWriter? {
        await withCheckedContinuation { continuation in
            let (told, id) = state.withLock { state -> (StoreWriter?, Int) in
                if !state.told.isEmpty { return (state.told.removeFirst(), 0) }
                state.nextID += 1
                state.waiter = (state.nextID, continuation)
                return (nil, state.nextID)
            }
            if let told { return continuation.resume(returning: told) }
            Task {
                try? await Task.sleep(until: deadline)   // a timeout: nothing to await
                let expired = state.withLock { state -> CheckedContinuation<StoreWriter?, Never>? in
                    guard let waiter = state.waiter, waiter.id == id else { return nil }
                    state.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }
}
