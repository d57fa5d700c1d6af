import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing
import WebSocket

extension AbuseTests {
    /// Hardening (issue 11, item 4): the state's size is bounded
    /// (`--max-state-bytes`, rejected `state_too_large`), and so are the board's
    /// strings and counts, so that no client can grow what every other client
    /// is sent.
    @Suite(.timeLimit(.minutes(1)))
    struct StateSizeAbuseTests {
        /// A client that takes messages of up to 64 MiB.
        static func reader(_ url: String, name: String) async throws -> ProtocolClient {
            var configuration = WebSocketConfiguration()
            configuration.maxMessageSize = 64 << 20
            configuration.maxFrameSize = 64 << 20
            return try await ProtocolClient.joined(url, name: name, configuration: configuration)
        }

        /// The bystander's `get ""`: its time and the size of the state's JSON.
        static func wholeState(_ client: ProtocolClient, id: String) async throws -> (time: Duration, bytes: Int, rev: Int64?) {
            let start = ContinuousClock.now
            try await client.send(.object(["type": "get", "id": .string(id), "path": ""]))
            let value = try await client.receive("value")
            let bytes = JSONSerializer().serialize(value["value"] ?? .null).count
            return (.now - start, bytes, value["rev"]?.int64Value)
        }

        @Test func longCounterNamesDoNotGrowTheState() async throws {
            let (server, port) = try await ServeProcess.serving(["--bytes-per-second", "100000000"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let abuser = try await Self.reader(url, name: "abuser")
            // 100 counters named with 64 KiB each (6.4 MB of state before the limit).
            let name = String(repeating: "n", count: 64 << 10)
            for index in 0..<100 {
                try await abuser.send(.object([
                    "type": "dispatch", "id": .string("a\(index)"),
                    "action": ["type": "increment", "counter": .string("\(index)\(name)")],
                ]))
            }
            var codes: [String: Int] = [:]
            for _ in 0..<100 {
                let answer = try await abuser.receive()
                codes[answer["code"]?.stringValue ?? answer["type"]?.stringValue ?? "?", default: 0] += 1
            }
            #expect(codes == ["invalid_action": 100])

            let bystander = try await Self.reader(url, name: "bystander")
            let state = try await Self.wholeState(bystander, id: "whole")
            #expect(state.bytes < 4_096, "the state is \(state.bytes) bytes")
            #expect(state.time < .milliseconds(250))
            await server.stop()
        }

        @Test func anActionGrowingTheStatePastItsLimitIsRejectedAndChangesNothing() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-state-bytes", "60000", "--messages-per-second", "100000", "--burst", "100000"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let abuser = try await Self.reader(url, name: "abuser")
            let title = String(repeating: "t", count: 200)
            var rejection: JSONValue?
            var added = 0
            // ~250 bytes a todo: the limit is reached after ~240; without one, all 1,000 are added.
            for index in 0..<1_000 {
                try await abuser.send(.object([
                    "type": "dispatch", "id": .string("a\(index)"), "action": ["type": "addTodo", "title": .string(title)],
                ]))
                let answer = try await abuser.receive()
                if answer["type"] == "reject" {
                    rejection = answer
                    break
                }
                added += 1
            }
            let rejected = try #require(rejection, "no rejection after \(added) todos")
            #expect(rejected["code"] == "state_too_large")
            #expect(rejected["message"]?.stringValue?.contains("60000") == true)

            let bystander = try await Self.reader(url, name: "bystander")
            let first = try await Self.wholeState(bystander, id: "w1")
            #expect(first.bytes <= 60_000)
            // Still refused, and nothing changed meanwhile.
            try await abuser.send(.object(["type": "dispatch", "id": "again", "action": ["type": "addTodo", "title": .string(title)]]))
            #expect(try await abuser.receive()["code"] == "state_too_large")
            let second = try await Self.wholeState(bystander, id: "w2")
            #expect(second.bytes == first.bytes)
            // Actions that make room are taken.
            try await bystander.send(#"{"type":"dispatch","id":"rm","action":{"type":"removeTodo","id":"t3"}}"#)
            _ = try await bystander.receive("ack")
            try await bystander.send(#"{"type":"dispatch","id":"add","action":{"type":"addTodo","title":"short"}}"#)
            _ = try await bystander.receive("ack")
            await server.stop()
        }
    }
}
