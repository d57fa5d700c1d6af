import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Every answer to a session's read reflects what that session caused
/// before it, in every store it uses: its own join, its own dispatches,
/// even before they are durable (docs/PROTOCOL.md, "Session").
@Suite(.timeLimit(.minutes(1)))
struct OwnWritesEndToEndTests {
    @Test(arguments: ["main", "team-a"])
    func aGetRightAfterJoiningSeesTheSessionsOwnPresence(store: String) async throws {
        try await TestServer.with { server in
            for attempt in 0..<15 {
                let client = try await ProtocolClient.connect(server.url)
                // hello, then the reads at once, without waiting for welcome.
                try await client.send(.object(["type": "hello", "name": .string("me-\(attempt)")]))
                try await client.send(.object(["type": "get", "store": .string(store), "id": "g", "path": "/presence"]))
                try await client.send(.object(["type": "subscribe", "store": .string(store), "id": "s", "path": "/presence"]))
                let welcome = try await client.receive("welcome")
                let session = try #require(welcome["session"]?.stringValue)
                let value = try await client.receive("value")
                #expect(value["value"]?[session]?["name"] == .string("me-\(attempt)"), "attempt \(attempt): \(value)")
                let snapshot = try await client.receive("snapshot")
                #expect(snapshot["value"]?[session] != nil, "attempt \(attempt): \(snapshot)")
                try await client.close()
            }
        }
    }

    @Test func aGetRightAfterADispatchSeesItsAction() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            for index in 1...30 {
                try await client.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                               "action": ["type": "increment", "counter": "n"]]))
                try await client.send(.object(["type": "get", "id": .string("g\(index)"), "path": "/counters/n"]))
                var answers: [JSONValue] = []
                while answers.count < 2 { answers.append(try await client.receive()) }
                #expect(answers.map { $0["type"] } == ["ack", "value"], "an action's ack comes with its revision, before the read")
                #expect(answers[1]["value"]?.int64Value == Int64(index))
            }
        }
    }
}
