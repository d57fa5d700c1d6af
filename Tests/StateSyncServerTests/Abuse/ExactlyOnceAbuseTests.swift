import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing

extension AbuseTests {
    /// Hardening (issue 11, item 6): exactly-once per clientId. Outcomes were
    /// kept in one window shared by every client, rejections included, so that
    /// junk dispatches from other connections made the server forget a victim's
    /// outcome and apply its retry twice. Now each clientId keeps its own share,
    /// a clientId active within the window is never forgotten, and new clientIds
    /// are refused while the table is full of active ones.
    @Suite(.timeLimit(.minutes(1)))
    struct ExactlyOnceAbuseTests {
        private static let flags = [
            "--outcomes-per-client", "100", "--max-client-ids", "8",
            "--messages-per-second", "100000", "--burst", "100000",
        ]

        private static func serve(_ directory: String) async throws -> (ServeProcess, Int) {
            let server = try ServeProcess(["serve", "--port", "0", "--data", directory] + flags)
            let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)")
            return (server, port)
        }

        /// Sends `count` dispatches at once (every other one an action the board
        /// rejects), then reads their answers; returns the answers' types by id.
        private static func junk(_ client: ProtocolClient, count: Int) async throws -> [String: String] {
            for index in 0..<count {
                let action: JSONValue = index.isMultiple(of: 2) ? ["type": "increment", "counter": "junk"] : ["type": "fly"]
                try await client.send(.object(["type": "dispatch", "id": .string("j\(index)"), "action": action]))
            }
            var answers: [String: String] = [:]
            while answers.count < count {
                let answer = try await client.receive()
                answers[answer["id"]?.stringValue ?? "?"] = answer["type"]?.stringValue
            }
            return answers
        }

        private static func pay(_ client: ProtocolClient) async throws -> JSONValue {
            try await client.send(#"{"type":"dispatch","id":"pay-1","action":{"type":"increment","counter":"balance","by":100}}"#)
            return try await client.receive()
        }

        private static func balance(_ client: ProtocolClient) async throws -> JSONValue? {
            try await client.send(#"{"type":"get","id":"b","path":"/counters/balance"}"#)
            return try await client.receive("value")["value"]
        }

        @Test func othersJunkNeverMakesTheServerForgetAVictimsOutcomeNorDoesARestart() async throws {
            try await withTemporaryDirectory { directory in
                let (server, port) = try await Self.serve(directory)
                let url = "ws://127.0.0.1:\(port)/sync"
                let victim = try await ProtocolClient.joined(url, clientID: "victim")
                let paid = try await Self.pay(victim)
                #expect(paid["type"] == "ack")
                let revision = try #require(paid["rev"]?.int64Value)
                try await victim.close()

                // Junk from other connections and clientIds: 30 times the
                // per-client share each, half of it rejected.
                var attackers: [ProtocolClient] = []
                for index in 0..<3 {
                    let attacker = try await ProtocolClient.joined(url, clientID: "junk-\(index)")
                    let answers = try await Self.junk(attacker, count: 3_000)
                    #expect(answers.values.filter { $0 == "ack" }.count == 1_500)
                    attackers.append(attacker)
                }
                // Fresh clientIds until the table (8) is full of active ones: then refused.
                var refusals: [JSONValue] = []
                for index in 0..<10 {
                    let fresh = try await ProtocolClient.joined(url, clientID: "fresh-\(index)")
                    try await fresh.send(#"{"type":"dispatch","id":"f","action":{"type":"increment","counter":"junk"}}"#)
                    let answer = try await fresh.receive()
                    if answer["type"] == "reject" { refusals.append(answer) }
                    try await fresh.close()
                }
                #expect(refusals.count == 6)
                #expect(refusals.allSatisfy { $0["code"] == "too_many_clients" })
                #expect(refusals.first?["message"]?.stringValue?.contains("remembers the outcomes of 8 clientIds") == true)
                // Without a clientId nothing is remembered, and nothing is refused.
                let anonymous = try await ProtocolClient.joined(url)
                try await anonymous.send(#"{"type":"dispatch","id":"x","action":{"type":"increment","counter":"junk"}}"#)
                #expect(try await anonymous.receive()["type"] == "ack")

                // The victim's retry gets its first answer: applied once.
                let retrying = try await ProtocolClient.joined(url, clientID: "victim")
                let again = try await Self.pay(retrying)
                #expect(again["type"] == "ack")
                #expect(again["rev"]?.int64Value == revision)
                #expect(try await Self.balance(retrying) == 100)
                for attacker in attackers { try await attacker.close() }
                await server.stop()

                // After a restart: the same, from the journal; the table is
                // restored (still full of recently active clientIds); the junk
                // sender's own oldest outcomes were trimmed to its share.
                let (restarted, newPort) = try await Self.serve(directory)
                let newURL = "ws://127.0.0.1:\(newPort)/sync"
                let back = try await ProtocolClient.joined(newURL, clientID: "victim")
                let afterRestart = try await Self.pay(back)
                #expect(afterRestart["type"] == "ack")
                #expect(afterRestart["rev"]?.int64Value == revision)
                #expect(try await Self.balance(back) == 100)
                let stranger = try await ProtocolClient.joined(newURL, clientID: "stranger")
                try await stranger.send(#"{"type":"dispatch","id":"s","action":{"type":"increment","counter":"junk"}}"#)
                #expect(try await stranger.receive()["code"] == "too_many_clients")
                let attacker = try await ProtocolClient.joined(newURL, clientID: "junk-0")
                try await attacker.send(#"{"type":"dispatch","id":"j2998","action":{"type":"increment","counter":"junk"}}"#)
                let recent = try await attacker.receive()
                try await attacker.send(#"{"type":"dispatch","id":"j0","action":{"type":"increment","counter":"junk"}}"#)
                let trimmed = try await attacker.receive()
                #expect(recent["type"] == "ack")
                #expect(trimmed["type"] == "ack")
                let recentRevision = try #require(recent["rev"]?.int64Value)
                #expect(try #require(trimmed["rev"]?.int64Value) > recentRevision)
                await restarted.stop()
            }
        }
    }
}
