import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// A `statesync serve --postgres` node whose journal failed for good (a
/// statement PostgreSQL refused, which is not retried) refuses every
/// dispatch to the store: `/health` must say so with 503 and why, so that a
/// load balancer stops sending it clients (issue 27, item 5), whichever
/// store's write PostgreSQL refused first (the node's stores share its database).
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresFailedJournalHealthTests {
    @Test(arguments: ["main", "team"])
    func aDatabaseTurnedReadOnlyMakesHealthAnswer503SayingWhy(store: String) async throws {
        try await TestPostgres.with { postgres in
            let node = try await ClusterNode.start(postgres)
            let client = try await ProtocolClient.joined(node.url, clientID: "c-writer")
            #expect(try await Self.answer(to: "a1", in: store, from: client)["type"] == "ack")
            #expect(try await HTTPProbe.health(port: node.port) { _ in true }.status == 200)

            // Every new session is read-only, and the node's sessions are ended: its writer reconnects and is refused.
            try await PostgresQueries.run("ALTER DATABASE \(TestPostgres.database) SET default_transaction_read_only = on", on: postgres)
            try await PostgresQueries.run("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'
                """, on: postgres)
            let refused = try await Self.answer(to: "a2", in: store, from: client)
            #expect(refused["type"] == "reject" && refused["code"] == "internal_error", "\(refused)")

            let health = try await HTTPProbe.health(port: node.port) { $0.status != 200 }
            #expect(health.status == 503, "\(health.body)")
            #expect(health.body["status"] == "failed", "\(health.body)")
            let reason = health.body["reason"]?.stringValue ?? ""
            #expect(reason.contains("read-only transaction"), "the reason names PostgreSQL's refusal: \(health.body)")
            #expect(!reason.contains("127.0.0.1"), "no connection details in \(health.body)")
            // Still failed a moment later: nothing clears it but a restart.
            try await client.send(Self.message(["type": "get", "id": "g1", "path": "/counters/hits"], in: store))
            #expect(try await client.receive("value")["value"]?.int64Value == 1)
            #expect(try await HTTPProbe.health(port: node.port) { _ in true }.status == 503)
            #expect(node.process.standardError.contains("journal write failed; no further writes"), "\(node.process.standardError)")
            await node.process.stop()
        }
    }

    /// Dispatches an increment with `id` to `store` and returns its answer (`ack` or `reject`).
    private static func answer(to id: String, in store: String, from client: ProtocolClient) async throws -> JSONValue {
        try await client.send(message(["type": "dispatch", "id": .string(id), "action": ["type": "increment", "counter": "hits"]], in: store))
        while true {
            let message = try await client.receive()
            if message["id"]?.stringValue == id, ["ack", "reject"].contains(message["type"]?.stringValue) { return message }
        }
    }

    /// `object` for `store` (`main` without the `store` key).
    private static func message(_ object: JSONObject, in store: String) -> JSONValue {
        var object = object
        if store != "main" { object["store"] = .string(store) }
        return .object(object)
    }
}
