import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Every error row of docs/PROTOCOL.md over real sockets, and bad input of
/// every kind leaving the server, the state and other clients untouched.
@Suite(.timeLimit(.minutes(1)))
struct ErrorTableEndToEndTests {
    /// Input that must be answered with `error` `code` (with `id`) and leave the connection open.
    static let staysOpen: [(input: String, code: String, id: String?)] = [
        ("not json", "bad_json", nil),
        ("[1,2,3]", "bad_json", nil),
        (#"{"type":"subscribe","id":"s1""#, "bad_json", nil),
        (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "bad_json", nil),
        (#"{"action":{"type":"x"}}"#, "unknown_type", nil),
        (#"{"type":42,"id":"n1"}"#, "unknown_type", "n1"),
        (#"{"type":"frobnicate","id":"f1"}"#, "unknown_type", "f1"),
        (#"{"type":"subscribe","path":"/todos"}"#, "bad_request", nil),
        (#"{"type":"subscribe","id":"s1"}"#, "bad_request", "s1"),
        (#"{"type":"subscribe","id":"s1","path":42}"#, "bad_request", "s1"),
        (#"{"type":"subscribe","id":"s1","path":"/todos","since":-1}"#, "bad_request", "s1"),
        (#"{"type":"dispatch","id":"a1","action":"addTodo"}"#, "bad_request", "a1"),
        (#"{"type":"dispatch","id":"a1"}"#, "bad_request", "a1"),
        (#"{"type":"get","id":7,"path":""}"#, "bad_request", nil),
        (#"{"type":"subscribe","id":"s1","path":"todos"}"#, "invalid_path", "s1"),
        (#"{"type":"get","id":"g1","path":"/a~2b"}"#, "invalid_path", "g1"),
    ]

    @Test(arguments: staysOpen)
    func badInputGetsItsErrorAndLeavesEverythingUntouched(input: String, code: String, id: String?) async throws {
        try await TestServer.with { server in
            let bystander = try await ProtocolClient.joined(server.url)
            try await bystander.send(#"{"type":"subscribe","id":"todos","path":"/todos"}"#)
            #expect(try await bystander.receive("snapshot")["value"] == [])

            let client = try await ProtocolClient.joined(server.url)
            try await client.send(input)
            let error = try await client.receive("error")
            #expect(error["code"]?.stringValue == code)
            #expect(error["id"]?.stringValue == id)
            #expect(error["message"]?.stringValue?.isEmpty == false)

            // The connection is still usable and the app state did not change
            // (presence changes as sessions join; it is the server's, not the input's).
            try await client.send(#"{"type":"get","id":"after","path":""}"#)
            let value = try await client.receive("value")
            #expect(value["value"]?["todos"] == [])
            #expect(value["value"]?["counters"] == [:])
            #expect(value["value"]?["chat"] == [])
            // The bystander heard nothing: its next message is the answer to its own request.
            try await bystander.send(#"{"type":"get","id":"check","path":"/todos"}"#)
            #expect(try await bystander.receive()["type"] == "value")
        }
    }

    @Test func binaryMessageIsUnsupportedAndKeepsTheConnection() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.sendBinary(Array("{\"type\":\"get\"}".utf8))
            let error = try await client.receive("error")
            #expect(error["code"] == "unsupported_binary")
            try await client.send(#"{"type":"get","id":"g1","path":""}"#)
            _ = try await client.receive("value")
        }
    }

    @Test func unknownActionTypeIsRejectedInvalidAction() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"launchRockets"}}"#)
            let reject = try await client.receive("reject")
            #expect(reject["id"] == "a1")
            #expect(reject["code"] == "invalid_action")
            try await client.send(#"{"type":"dispatch","id":"a2","action":{"type":"addTodo","title":17}}"#)
            #expect(try await client.receive("reject")["code"] == "invalid_action")
        }
    }

    @Test func messageAboveTheLimitCloses1009AndOthersGoOn() async throws {
        var configuration = TestServer.configuration
        configuration.session.maxMessageBytes = 4_096
        try await TestServer.with(configuration) { server in
            let bystander = try await ProtocolClient.joined(server.url)
            let client = try await ProtocolClient.joined(server.url)
            let title = String(repeating: "x", count: 5_000)
            try await client.send(#"{"type":"dispatch","id":"big","action":{"type":"addTodo","title":"\#(title)"}}"#)
            _ = try await client.drainUntilClosed()
            #expect(client.closeCode == 1009)
            try await bystander.send(#"{"type":"get","id":"g1","path":"/todos"}"#)
            #expect(try await bystander.receive("value")["value"] == [])
        }
    }

    @Test func subscriptionsAboveTheLimitAreRefused() async throws {
        var configuration = TestServer.configuration
        configuration.session.maxSubscriptions = 2
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            for id in ["s1", "s2"] {
                try await client.send(.object(["type": "subscribe", "id": .string(id), "path": "/todos"]))
                _ = try await client.receive("snapshot")
            }
            try await client.send(#"{"type":"subscribe","id":"s3","path":"/chat"}"#)
            let error = try await client.receive("error")
            #expect(error["code"] == "too_many_subscriptions")
            #expect(error["id"] == "s3")
            // Re-subscribing an open id is not a new subscription; freeing one makes room.
            try await client.send(#"{"type":"subscribe","id":"s2","path":"/chat"}"#)
            _ = try await client.receive("snapshot")
            try await client.send(#"{"type":"unsubscribe","id":"s1"}"#)
            _ = try await client.receive("unsubscribed")
            try await client.send(#"{"type":"subscribe","id":"s3","path":"/chat"}"#)
            _ = try await client.receive("snapshot")
        }
    }

    @Test func rateLimitRefusesThenClosesWhenItPersists() async throws {
        var configuration = TestServer.configuration
        configuration.session.messagesPerSecond = 1
        configuration.session.burst = 3
        configuration.session.rateLimitedMessagesBeforeClose = 5
        let frozen = ContinuousClock.now
        configuration.sessionClock = { frozen }
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            // Time stands still (see `sessionClock` below), so no token refills.
            // Gets are answered by the engine and refusals by the session at
            // once, so replies may overtake each other: match them by id.
            for index in 0..<3 {
                try await client.send(.object(["type": "get", "id": .string("g\(index)"), "path": ""]))
            }
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits"}}"#)
            try await client.send(#"{"type":"get","id":"g9","path":""}"#)
            var replies: [String: JSONValue] = [:]
            for _ in 0..<5 {
                let reply = try await client.receive()
                replies[reply["id"]?.stringValue ?? ""] = reply
            }
            for id in ["g0", "g1", "g2"] { #expect(replies[id]?["type"] == "value") }
            #expect(replies["a1"]?["type"] == "reject")
            #expect(replies["a1"]?["code"] == "rate_limited")
            #expect(replies["g9"]?["type"] == "error")
            #expect(replies["g9"]?["code"] == "rate_limited")
            // Persisting: keep sending until the server closes (after 5 refusals in a row).
            for index in 0..<20 {
                do {
                    try await client.send(.object(["type": "get", "id": .string("x\(index)"), "path": ""]))
                } catch {
                    break
                }
            }
            let rest = try await client.drainUntilClosed()
            #expect(!rest.isEmpty)
            #expect(rest.allSatisfy { $0["code"] == "rate_limited" })
            #expect(client.closeCode == 1008)
            // The closed session left: its presence entry is gone.
            let observer = try await ProtocolClient.joined(server.url)
            let session = try #require(client.welcome["session"]?.stringValue)
            try await observer.send(.object(["type": "subscribe", "id": "p", "path": .string("/presence/\(session)")]))
            // Joined before the leave was handled: one patch takes the entry
            // away (an absent value is `null` to a subscriber). Otherwise the
            // snapshot already shows it gone.
            if try await observer.receive("snapshot")["value"] != nil as JSONValue {
                let patch = try await observer.receive("patch")
                #expect(patch["ops"] == [["op": "replace", "path": "", "value": nil]])
            }
        }
    }
}
