import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// PostgreSQL fails over to a replica that was behind: the store's rows go
/// back as a lagging replica promoted has them (its newest journal rows,
/// outcomes and snapshots missing, its head lower). A node that served the
/// lost revisions must not serve or write on top of the shorter history
/// under the same epoch, which would fork what its clients saw (issue 27,
/// item 6): it says so (`/health` 503 `failed`, a `critical` log naming the
/// store and both revisions), and the store starts a new epoch, which a
/// node serving it from then on uses.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresHistoryLossTests {
    @Test func aStoreWhoseHeadWentBackStartsANewEpochAndTheNodeThatServedMoreFails() async throws {
        try await TestPostgres.with { postgres in
            let a = try await ClusterNode.start(postgres)
            let onA = try await ProtocolClient.joined(a.url, clientID: "c-a")
            for index in 1...3 { #expect(try await Self.increment("a\(index)", from: onA)["type"] == "ack") }
            let epoch = try await Self.epoch(on: postgres)
            let served = try await ClusterChecks.head(on: postgres)

            // The failover: the promoted replica lacks the last two revisions.
            let kept = served - 2
            try await Self.failOver(keeping: kept, on: postgres)

            let health = try await HTTPProbe.health(port: a.port) { $0.status != 200 }
            #expect(health.status == 503 && health.body["status"] == "failed", "\(health.body)")
            let reason = health.body["reason"]?.stringValue ?? ""
            #expect(reason.contains("lost history") && reason.contains("\(kept)") && reason.contains("\(served)"), "\(health.body)")
            #expect(!reason.contains("127.0.0.1"), "no connection details in \(health.body)")
            let log = a.process.standardError
            #expect(log.contains("a store lost history in PostgreSQL") && log.contains("store=default")
                && log.contains("seen=\(served)") && log.contains("head=\(kept)"), "\(log)")
            let newEpoch = try await Self.epoch(on: postgres)
            #expect(newEpoch != epoch, "the store starts a new epoch")
            let refused = try await Self.increment("a4", from: onA)
            #expect(refused["type"] == "reject" && refused["code"] == "internal_error", "\(refused)")

            // A node serving the store now serves the new epoch; what it writes past A's revision, A never follows.
            let b = try await ClusterNode.start(postgres)
            let onB = try await ProtocolClient.joined(b.url, clientID: "c-b")
            #expect(onB.welcome["epoch"]?.stringValue == newEpoch)
            for index in 1...4 { #expect(try await Self.increment("b\(index)", from: onB)["type"] == "ack") }
            #expect(try await ClusterChecks.head(on: postgres) > served)
            try await onA.send(#"{"type":"get","id":"g","path":"/counters/hits"}"#)
            #expect(try await onA.receive("value")["value"]?.int64Value == 3, "A keeps what it served, never B's history")
            #expect(try await HTTPProbe.health(port: a.port) { _ in true }.status == 503)
            for node in [a, b] { await node.process.stop() }
        }
    }

    @Test func aWriteFindingTheHeadBehindIsRefusedAndStartsANewEpoch() async throws {
        try await TestPostgres.with { postgres in
            // No poll within the test: the write is what finds the head behind.
            let a = try await ClusterNode.start(postgres, ["--poll-interval", "60"])
            let onA = try await ProtocolClient.joined(a.url, clientID: "c-a")
            for index in 1...3 { #expect(try await Self.increment("a\(index)", from: onA)["type"] == "ack") }
            let epoch = try await Self.epoch(on: postgres)
            let served = try await ClusterChecks.head(on: postgres)
            try await Self.failOver(keeping: served - 2, on: postgres)

            let refused = try await Self.increment("a4", from: onA)
            #expect(refused["type"] == "reject" && refused["code"] == "internal_error", "\(refused)")
            #expect(try await ClusterChecks.head(on: postgres) == served - 2, "nothing written on top")
            #expect(try await Self.epoch(on: postgres) != epoch, "the store starts a new epoch")
            let health = try await HTTPProbe.health(port: a.port) { $0.status != 200 }
            #expect(health.body["status"] == "failed" && (health.body["reason"]?.stringValue ?? "").contains("lost history"), "\(health.body)")
            await a.process.stop()
        }
    }

    /// Makes the store's rows what a promoted replica that had only the
    /// revisions through `kept` has: newer journal rows, outcomes and
    /// snapshots gone, the head at `kept`.
    private static func failOver(keeping kept: Int64, on postgres: TestPostgres) async throws {
        for table in ["statesync_journal", "statesync_outcomes", "statesync_snapshots"] {
            try await PostgresQueries.run("DELETE FROM \(table) WHERE store_id = 'default' AND revision > \(kept)", on: postgres)
        }
        try await PostgresQueries.run("UPDATE statesync_stores SET head_revision = \(kept) WHERE store_id = 'default'", on: postgres)
    }

    /// Dispatches an increment of `hits` with `id` and returns its answer (`ack` or `reject`).
    private static func increment(_ id: String, from client: ProtocolClient) async throws -> JSONValue {
        try await client.send(.object(["type": "dispatch", "id": .string(id), "action": ["type": "increment", "counter": "hits"]]))
        while true {
            let message = try await client.receive()
            if message["id"]?.stringValue == id, ["ack", "reject"].contains(message["type"]?.stringValue) { return message }
        }
    }

    /// The epoch of `main` in the database.
    private static func epoch(on postgres: TestPostgres) async throws -> String {
        try #require(try await PostgresQueries.text("SELECT epoch FROM statesync_stores WHERE store_id = 'default'", on: postgres))
    }
}
