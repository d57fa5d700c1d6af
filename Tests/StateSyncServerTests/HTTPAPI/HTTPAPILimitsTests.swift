import Foundation
import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The HTTP API's limits, on an in-process server whose limits are set small.
@Suite(.timeLimit(.minutes(1)))
struct HTTPAPILimitsTests {
    @Test func aCallerAboveTheMessageRateIsRefused429AndOthersAreNot() async throws {
        var configuration = TestServer.configuration
        configuration.session.messagesPerSecond = 1
        configuration.session.burst = 3
        // Frozen: no token refills while a slow machine runs the test.
        let frozen = ContinuousClock.now
        configuration.sessionClock = { frozen }
        try await TestServer.with(configuration) { server in
            var statuses: [Int] = []
            for _ in 0..<5 {
                statuses.append(try await Curl.post(port: server.port, "/api/dispatch", #"{"type":"increment","counter":"hits"}"#).status)
            }
            #expect(statuses == [200, 200, 200, 429, 429])
            let refused = try await Curl.post(port: server.port, "/api/dispatch", #"{"type":"increment","counter":"hits"}"#)
            #expect(refused.headers["retry-after"] == "1")
            #expect(try refused.json["code"] == "rate_limited")
            // A WebSocket client is untouched by the HTTP caller's limit.
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"get","id":"g","path":"/counters/hits"}"#)
            #expect(try await client.receive("value")["value"] == 3)
        }
    }

    @Test func aBodyAboveTheMessageLimitIsRefused413() async throws {
        var configuration = TestServer.configuration
        configuration.session.maxMessageBytes = 1_024
        try await TestServer.with(configuration) { server in
            let title = String(repeating: "x", count: 2_000)
            let large = try await Curl.post(port: server.port, "/api/dispatch", #"{"type":"addTodo","title":"\#(title)"}"#)
            #expect(large.status == 413)
            let small = try await Curl.post(port: server.port, "/api/dispatch", #"{"type":"addTodo","title":"ok"}"#)
            #expect(small.status == 200)
        }
    }

    @Test func aQuietWatchGetsHeartbeats() async throws {
        var configuration = TestServer.configuration
        configuration.session.eventStreamHeartbeat = .milliseconds(50)
        try await TestServer.with(configuration) { server in
            let curl = try #require(Tools.tool("curl"))
            let watcher = try ServeProcess(["-s", "-N", "http://127.0.0.1:\(server.port)/api/watch?path=/todos"], executable: curl)
            // Two heartbeats after the snapshot: the stream stays alive while nothing changes.
            let output = await watcher.waitForOutput { output in
                let parts = output.components(separatedBy: "event: snapshot")
                return parts.count == 2 && parts[1].components(separatedBy: ": heartbeat").count > 2
            }
            #expect(output.contains("event: snapshot"))
            #expect(output.components(separatedBy: "event: snapshot").last?.contains(": heartbeat") == true)
            watcher.send(SIGKILL)
            _ = await watcher.waitForExit()
        }
    }

    @Test func tooManyPathsAndUnreadablePathsAreRefusedBeforeTheStreamStarts() async throws {
        var configuration = TestServer.configuration
        configuration.session.maxSubscriptions = 2
        try await TestServer.with(configuration) { server in
            let many = try await Curl.run(port: server.port, "/api/watch?path=/a&path=/b&path=/c")
            #expect(many.status == 400)
            #expect(try many.json["code"] == "too_many_subscriptions")
            let bad = try await Curl.run(port: server.port, "/api/watch?path=nope")
            #expect(bad.status == 400)
            #expect(try bad.json["code"] == "invalid_path")
        }
    }
}
