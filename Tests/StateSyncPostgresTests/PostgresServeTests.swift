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
