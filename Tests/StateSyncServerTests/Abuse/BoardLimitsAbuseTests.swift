import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, item 4): the board's counts and names are bounded
    /// by `serve` flags (`--max-todos`, `--max-counters`,
    /// `--max-counter-name-length`, `--max-todo-id-length`): one client
    /// cannot grow the board beyond them, gets `limit_reached` or
    /// `invalid_action` saying which limit, and others go on changing what
    /// the board holds.
    @Suite(.timeLimit(.minutes(1)))
    struct BoardLimitsAbuseTests {
        private static func dispatch(_ id: String, _ action: String) -> String {
            #"{"type":"dispatch","id":"\#(id)","action":\#(action)}"#
        }

        /// Sends `actions` at once, then returns each answer: `ack`, or the reject's code and message.
        private static func answers(_ client: ProtocolClient, _ actions: [String]) async throws -> [String] {
            for (index, action) in actions.enumerated() { try await client.send(Self.dispatch("d\(index)", action)) }
            var answers: [String] = []
            for _ in actions {
                let answer = try await client.receive()
                if answer["type"] == "ack" {
                    answers.append("ack")
                } else {
                    answers.append("\(answer["code"]?.stringValue ?? "?"): \(answer["message"]?.stringValue ?? "")")
                }
            }
            return answers
        }

        @Test func theFlagsBoundWhatOneClientCanAddAndOthersGoOn() async throws {
            let (server, port) = try await ServeProcess.serving([
                "--max-todos", "3", "--max-counters", "2", "--max-counter-name-length", "8", "--max-todo-id-length", "21",
            ])
            let url = "ws://127.0.0.1:\(port)/sync"
            let attacker = try await ProtocolClient.joined(url, name: "attacker")
            let todos = try await Self.answers(attacker, Array(repeating: #"{"type":"addTodo","title":"spam"}"#, count: 50))
            #expect(todos.prefix(3).allSatisfy { $0 == "ack" }, "\(todos)")
            #expect(todos.dropFirst(3).allSatisfy { $0 == "limit_reached: the board holds 3 todos, its limit: remove some first" },
                    "\(todos)")
            let others = try await Self.answers(attacker, [
                #"{"type":"increment","counter":"abcdefgh"}"#,
                #"{"type":"increment","counter":"abcdefghi"}"#,
                #"{"type":"increment","counter":"second"}"#,
                #"{"type":"resetCounter","counter":"third"}"#,
                #"{"type":"toggleTodo","id":"\#(String(repeating: "t", count: 22))"}"#,
            ])
            #expect(others == [
                "ack",
                "invalid_action: counter name is 9 characters long; the limit is 8",
                "ack",
                "limit_reached: the board holds 2 counters, its limit",
                "invalid_action: todo id is 22 characters long; ids have at most 21",
            ])

            // A bystander sees a board of exactly the limits and changes what it holds.
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            try await bystander.send(#"{"type":"get","id":"g","path":""}"#)
            let board = try #require(try await bystander.receive("value")["value"])
            let ids = try #require(board["todos"]?.arrayValue).compactMap { $0["id"]?.stringValue }
            #expect(ids.count == 3)
            #expect(board["counters"]?.objectValue?.count == 2)
            let changes = try await Self.answers(bystander, [
                #"{"type":"toggleTodo","id":"\#(ids[0])"}"#,
                #"{"type":"increment","counter":"second","by":5}"#,
                #"{"type":"removeTodo","id":"\#(ids[1])"}"#,
                #"{"type":"addTodo","title":"room again"}"#,
            ])
            #expect(changes == ["ack", "ack", "ack", "ack"])
            await server.stop()
        }

        @Test func theDefaultsHoldOnTheRealBinary() async throws {
            let (server, port) = try await ServeProcess.serving()
            let client = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "names")
            let answers = try await Self.answers(client, [
                #"{"type":"increment","counter":"\#(String(repeating: "n", count: 101))"}"#,
                #"{"type":"increment","counter":"\#(String(repeating: "n", count: 100))"}"#,
                #"{"type":"removeTodo","id":"\#(String(repeating: "t", count: 33))"}"#,
                #"{"type":"removeTodo","id":"\#(String(repeating: "t", count: 32))"}"#,
            ])
            #expect(answers == [
                "invalid_action: counter name is 101 characters long; the limit is 100",
                "ack",
                "invalid_action: todo id is 33 characters long; ids have at most 32",
                "not_found: no todo with id \(String(repeating: "t", count: 32))",
            ])
            await server.stop()
        }

        @Test func aTodoIDLimitBelowTheServersOwnIDsIsRefusedAtStart() async throws {
            let result = try await CLI.run(["serve", "--memory", "--port", "0", "--max-todo-id-length", "20"])
            #expect(result.status != 0)
            #expect(result.errors.contains("--max-todo-id-length must be at least 21"), "\(result.errors)")
        }
    }
}
