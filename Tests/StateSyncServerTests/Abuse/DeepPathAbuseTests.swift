import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: a path a client sends is bounded (32 tokens and 1 KiB by
    /// default), so one small `subscribe` cannot grow the server or stall the
    /// others (it took 2 GB and 8.6 s with a 16,000-token pointer).
    @Suite(.timeLimit(.minutes(1)))
    struct DeepPathAbuseTests {
        @Test func deepPathsAreRefusedAndABystanderIsUnaffected() async throws {
            let (server, port) = try await ServeProcess.serving()
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, clientID: "bystander")
            try await bystander.send(#"{"type":"subscribe","id":"c","path":"/counters"}"#)
            _ = try await bystander.receive("snapshot")
            let before = try #require(server.residentBytes)

            let attacker = try await ProtocolClient.joined(url)
            let long = String(repeating: "/a", count: 16_000)   // 32 KB, 16,000 tokens
            for index in 0..<50 {
                try await attacker.send(.object(["type": "subscribe", "id": .string("x\(index)"), "path": .string(long)]))
                let error = try await attacker.receive("error")
                #expect(error["code"] == "invalid_path")
                #expect(error["message"]?.stringValue?.hasSuffix("is 32000 bytes long; at most 1024 are accepted") == true)
            }
            try await attacker.send(.object(["type": "get", "id": "g", "path": .string(String(repeating: "/a", count: 40))]))
            let deep = try await attacker.receive("error")
            #expect(deep["message"]?.stringValue?.hasSuffix("has 40 tokens; at most 32 are accepted") == true)
            let http = try await Curl.run(port: port, "/api/state?path=" + String(repeating: "/a", count: 40))
            #expect(http.status == 400)
            #expect(try http.json["code"] == "invalid_path")

            // The bystander's dispatch is answered at once, and the server did not grow.
            let start = ContinuousClock.now
            try await bystander.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits"}}"#)
            _ = try await bystander.receive("patch")
            _ = try await bystander.receive("ack")
            #expect(ContinuousClock.now - start < .seconds(1))
            let after = try #require(server.residentBytes)
            #expect(after - before < 16 << 20, "RSS grew from \(before) to \(after) bytes")
            await server.stop()
        }

        @Test func theLimitIsAServeFlag() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-path-depth", "64"])
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync")
            try await client.send(.object(["type": "subscribe", "id": "s", "path": .string(String(repeating: "/a", count: 40))]))
            #expect(try await client.receive("snapshot")["value"] == nil as JSONValue)
            await server.stop()
            let refused = try await CLI.run(["serve", "--memory", "--max-path-depth", "0"])
            #expect(refused.status == 2)
            #expect(refused.errors.contains("--max-path-depth must be at least 1"))
        }
    }
}
