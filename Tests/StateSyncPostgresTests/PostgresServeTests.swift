import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The real `statesync serve --postgres` binary on one node: it serves
/// from PostgreSQL, and a restarted server keeps the state, the epoch and
/// the exactly-once outcomes.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct PostgresServeTests {
    @Test func keepsStateEpochAndOutcomesAcrossARestart() async throws {
        try await TestPostgres.with { postgres in
            let first = try ServeProcess(["serve", "--port", "0", "--postgres", postgres.url])
            let port = try #require(try await first.waitForPort(), "no URL printed: \(first.standardError)")
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", clientID: "pg-client")
            for index in 0..<5 {
                try await client.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                               "action": ["type": "increment", "counter": "hits"]]))
            }
            var acked: [String: Int64] = [:]
            while acked.count < 5 {
                let message = try await client.receive()
                if message["type"] == "ack", let id = message["id"]?.stringValue { acked[id] = message["rev"]?.int64Value }
            }
            await first.stop()

            // The URL from the environment this time, as a password would come.
            let second = try ServeProcess(["serve", "--port", "0"], environment: ["STATESYNC_POSTGRES_URL": postgres.url])
            let port2 = try #require(try await second.waitForPort(), "no URL printed: \(second.standardError)")
            let again = try await ProtocolClient.joined("ws://127.0.0.1:\(port2)/sync", clientID: "pg-client")
            #expect(again.welcome["epoch"] == client.welcome["epoch"], "the epoch belongs to the store")
            try await again.send(#"{"type":"get","id":"g1","path":"/counters/hits"}"#)
            #expect(try await again.receive("value")["value"]?.int64Value == 5)
            // A retry of an acknowledged dispatch gets its original revision and is not applied again.
            try await again.send(#"{"type":"dispatch","id":"a3","action":{"type":"increment","counter":"hits"}}"#)
            #expect(try await again.receive("ack")["rev"]?.int64Value == acked["a3"])
            try await again.send(#"{"type":"get","id":"g2","path":"/counters/hits"}"#)
            #expect(try await again.receive("value")["value"]?.int64Value == 5)
            await second.stop()
        }
    }

    @Test func reconnectsAfterPostgresRestartsWithoutLosingAnAck() async throws {
        try await TestPostgres.with { postgres in
            // An immediate restart, stopped long enough for /health to be seen failing.
            let (server, port, client, anonymous, first) = try await Self.servingThenCrashed(postgres)
            try await anonymous.send(Self.increment("a1"))
            let failing = try await HTTPProbe.health(port: port) { $0.status == 503 }
            #expect(failing.body["status"] == "storage_failing", "\(failing.body)")
            #expect(try await HTTPProbe.metric("statesync_journal_write_failures_total", port: port) ?? 0 >= 1)
            try await postgres.restart()
            // The action held while PostgreSQL was down is written and acknowledged, without a restart of the node.
            let held = try await Self.answer(to: "a1", from: anonymous, sent: true)
            #expect(held["type"] == "ack", "\(held)")
            _ = try await HTTPProbe.health(port: port) { $0.status == 200 }
            let after = try await Self.answer(to: "a2", from: client)
            #expect(after["type"] == "ack", "\(after)")

            // A retry of an action acknowledged before the restart is answered with its revision, not applied again.
            let retried = try await Self.answer(to: "a0", from: client)
            #expect(retried["rev"] == first["rev"], "\(retried)")
            try await client.send(#"{"type":"get","id":"g1","path":"/counters/hits"}"#)
            #expect(try await client.receive("value")["value"]?.int64Value == 4)
            // Nothing acknowledged is lost, nothing is stored twice, and no revision is skipped.
            #expect(try await PostgresQueries.actionIDs(of: "pg-client", on: postgres) == ["a0", "a2"])
            #expect(try await Self.dispatchedIDs(on: postgres) == "a0,w1,a1,a2")
            let revisions = try await PostgresQueries.revisions(on: postgres)
            #expect(revisions == Array(1...Int64(revisions.count)), "\(revisions)")
            await server.stop()
        }
    }

    @Test func aSIGTERMWhilePostgresIsDownWaitsForTheHeldWrite() async throws {
        try await TestPostgres.with { postgres in
            let (server, port, _, anonymous, _) = try await Self.servingThenCrashed(postgres)
            try await anonymous.send(Self.increment("held"))
            _ = try await HTTPProbe.health(port: port) { $0.status == 503 }
            // As with a full disk: the node stops once what it accepted is stored.
            server.send(SIGTERM)
            try await postgres.restart()
            #expect(await server.waitForExit() == 0, "\(server.standardError)")
            #expect(try await Self.dispatchedIDs(on: postgres) == "a0,w1,held")
        }
    }

    /// A `statesync serve --postgres` node with two sessions: `client`
    /// (clientId `pg-client`, whose `a0` is acknowledged as `first`) and
    /// `anonymous` (no clientId: an action it sends needs no outcome lookup
    /// in the unreachable store), then PostgreSQL crashed (immediate mode).
    /// `anonymous`'s `w1` is acknowledged before the crash: its ack says the
    /// session's journaled join is stored too, so the writer is idle at the
    /// crash and the node learns of it only from the next action (which it
    /// holds, rather than refuse `unavailable` as it would once it knows).
    private static func servingThenCrashed(_ postgres: TestPostgres) async throws
        -> (server: ServeProcess, port: Int, client: ProtocolClient, anonymous: ProtocolClient, first: JSONValue) {
        let server = try ServeProcess(["serve", "--port", "0", "--postgres", postgres.url])
        let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
        let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", clientID: "pg-client")
        let first = try await answer(to: "a0", from: client)
        #expect(first["type"] == "ack")
        let anonymous = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
        #expect(try await answer(to: "w1", from: anonymous)["type"] == "ack")
        try await postgres.crash()
        return (server, port, client, anonymous, first)
    }

    /// The action ids of every client dispatch in the journal, in revision order, comma-separated.
    private static func dispatchedIDs(on postgres: TestPostgres) async throws -> String? {
        try await PostgresQueries.text("""
            SELECT string_agg(action_id, ',' ORDER BY revision) FROM statesync_journal
             WHERE store_id = 'default' AND action_id IS NOT NULL
            """, on: postgres)
    }

    /// Dispatches an increment with `id` (unless it was `sent` already) and
    /// returns its answer (`ack` or `reject`).
    private static func answer(to id: String, from client: ProtocolClient, sent: Bool = false) async throws -> JSONValue {
        if !sent { try await client.send(increment(id)) }
        while true {
            let message = try await client.receive()
            if message["id"]?.stringValue == id, ["ack", "reject"].contains(message["type"]?.stringValue) { return message }
        }
    }

    private static func increment(_ id: String) -> JSONValue {
        .object(["type": "dispatch", "id": .string(id), "action": ["type": "increment", "counter": "hits"]])
    }

    @Test func saysWhenPostgresCannotBeReached() async throws {
        let closed = try ReservedPort()
        let server = try ServeProcess(["serve", "--port", "0", "--postgres", "postgres://statesync@127.0.0.1:\(closed.port)/statesync"])
        #expect(await server.waitForExit() != 0)
        #expect(server.standardError.contains("PostgreSQL at statesync@127.0.0.1:\(closed.port)/statesync failed to connect"),
                "\(server.standardError)")
    }

    @Test(arguments: [
        (["--memory", "--postgres", "postgres://u@127.0.0.1/db"], "--memory and --postgres"),
        (["--postgres", "mysql://u@127.0.0.1/db"], "must start with postgres://"),
        (["--postgres", "postgres://u@127.0.0.1/db?sslmode=require"], "TLS to PostgreSQL is not supported yet"),
    ])
    func refusesABadPostgresOption(arguments: [String], message: String) async throws {
        let server = try ServeProcess(["serve", "--port", "0"] + arguments)
        #expect(await server.waitForExit() != 0)
        #expect(server.standardError.contains(message), "\(server.standardError)")
    }
}
