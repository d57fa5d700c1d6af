import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Exactly-once and resume across reconnects, over real sockets.
@Suite(.timeLimit(.minutes(1)))
struct ReconnectEndToEndTests {
    @Test func repeatedDispatchAfterReconnectGetsTheOriginalAnswer() async throws {
        try await TestServer.with { server in
            let first = try await ProtocolClient.joined(server.url, clientID: "c-retry")
            let dispatch = #"{"type":"dispatch","id":"a17","action":{"type":"addTodo","title":"Milk"}}"#
            try await first.send(dispatch)
            let ack = try await first.receive("ack")
            try await first.send(#"{"type":"dispatch","id":"a18","action":{"type":"toggleTodo","id":"nope"}}"#)
            let reject = try await first.receive("reject")
            try await first.close()

            let second = try await ProtocolClient.joined(server.url, clientID: "c-retry")
            try await second.send(dispatch)
            #expect(try await second.receive("ack") == ack)
            try await second.send(#"{"type":"dispatch","id":"a18","action":{"type":"toggleTodo","id":"nope"}}"#)
            #expect(try await second.receive("reject") == reject)
            try await second.send(#"{"type":"get","id":"g1","path":"/todos"}"#)
            #expect(try await second.receive("value")["value"]?.arrayValue?.count == 1)
        }
    }

    @Test func resumeWithSinceGetsAPatchFromThatBase() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"subscribe","id":"s1","path":"/todos"}"#)
            let snapshot = try await client.receive("snapshot")
            let since = try #require(snapshot["rev"]?.int64Value)
            try await client.close()

            let writer = try await ProtocolClient.joined(server.url)
            try await writer.send(#"{"type":"dispatch","id":"a1","action":{"type":"addTodo","title":"Milk"}}"#)
            let ack = try await writer.receive("ack")

            let resumed = try await ProtocolClient.joined(server.url)
            try await resumed.send(#"{"type":"subscribe","id":"s1","path":"/todos","since":\#(since)}"#)
            let patch = try await resumed.receive("patch")
            #expect(patch["base"]?.int64Value == since)
            // At least the acked revision (the resumed session's own join adds presence after it).
            #expect(try #require(patch["rev"]?.int64Value) >= (try #require(ack["rev"]?.int64Value)))
            var mirror = try #require(snapshot["value"])
            try JSONPatch(jsonValue: try #require(patch["ops"])).apply(to: &mirror)
            #expect(mirror.arrayValue?.first?["title"] == "Milk")
        }
    }

    @Test func resumeFromOutsideTheHistoryGetsASnapshot() async throws {
        var configuration = TestServer.configuration
        configuration.engine.historyWindow = 2
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            for index in 0..<5 {
                try await client.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                               "action": ["type": "increment", "counter": "hits"]]))
                _ = try await client.receive("ack")
            }
            try await client.send(#"{"type":"subscribe","id":"s1","path":"/counters","since":0}"#)
            let snapshot = try await client.receive("snapshot")
            #expect(snapshot["value"] == ["hits": 5])
        }
    }
}
