import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: each `hello` announces a session in `/presence`, which every
    /// presence watcher receives, so one address could make the server
    /// broadcast without bound by joining in a loop. Joins are now limited per
    /// client address (`--joins-per-second`, `--join-burst`): beyond, the
    /// `hello` gets `rate_limited` and the connection is closed with 1008.
    @Suite(.timeLimit(.minutes(1)))
    struct JoinRateAbuseTests {
        @Test func joinsBeyondTheRateOfOneAddressAreRefused() async throws {
            let (server, port) = try await ServeProcess.serving(["--joins-per-second", "1", "--join-burst", "5"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, name: "bystander")   // the first of the burst
            try await bystander.send(#"{"type":"subscribe","id":"p","path":"/presence"}"#)
            _ = try await bystander.receive("snapshot")

            let start = ContinuousClock.now
            var welcomed: [ProtocolClient] = []
            var refusals: [JSONValue] = []
            var closeCodes: [UInt16?] = []
            for index in 0..<20 {
                let client = try await ProtocolClient.connect(url)
                try await client.send(.object(["type": "hello", "name": .string("joiner-\(index)")]))
                let answer = try await client.receive()
                if answer["type"] == "welcome" {
                    welcomed.append(client)
                } else {
                    refusals.append(answer)
                    _ = try await client.drainUntilClosed()
                    closeCodes.append(client.closeCode)
                }
            }
            // 4 left in the burst, and one more per second the loop ran (a slow machine).
            let refilled = Int((ContinuousClock.now - start).components.seconds) + 1
            #expect(welcomed.count >= 4 && welcomed.count <= 4 + refilled, "\(welcomed.count) of 20 joined in \(refilled) s")
            #expect(!refusals.isEmpty)
            #expect(refusals.count == 20 - welcomed.count)
            #expect(refusals.allSatisfy { $0["code"] == "rate_limited" })
            #expect(refusals.first?["message"] == "too many joins from 127.0.0.1: at most 1 per second")
            #expect(closeCodes.allSatisfy { $0 == 1008 })

            // The bystander heard only the admitted joins in /presence, and is served at once.
            let asked = ContinuousClock.now
            try await bystander.send(#"{"type":"get","id":"g","path":"/presence"}"#)
            var presence: JSONValue = nil
            while presence == nil {
                let message = try await bystander.receive()
                if message["type"] == "value" { presence = message["value"] ?? nil }
            }
            #expect(ContinuousClock.now - asked < .seconds(2), "the bystander waited \(ContinuousClock.now - asked)")
            #expect(presence.objectValue?.count == welcomed.count + 1, "\(presence)")

            // Another address joins meanwhile.
            let other = try await Self.join(port: port, from: "127.0.0.2")
            #expect(other.hasPrefix(#"{"type":"welcome""#), "\(other)")
            await server.stop()
        }

        /// The table of addresses is bounded by `--max-tracked-addresses`:
        /// with room for two, joins from two more addresses make the server
        /// forget the first, whose next join is then admitted at once; with
        /// the default room, the same join is refused (its bucket is empty).
        @Test(arguments: [2, 10_000])
        func theTableOfAddressesHoldsAtMostTheFlagsNumber(tracked: Int) async throws {
            let (server, port) = try await ServeProcess.serving([
                "--joins-per-second", "1", "--join-burst", "1", "--max-tracked-addresses", "\(tracked)",
            ])
            #expect(try await Self.join(port: port, from: "127.0.0.1").hasPrefix(#"{"type":"welcome""#))
            let refused = try await Self.join(port: port, from: "127.0.0.1")
            let emptied = ContinuousClock.now
            #expect(refused.contains("rate_limited"), "\(refused)")
            #expect(try await Self.join(port: port, from: "127.0.0.2").hasPrefix(#"{"type":"welcome""#))
            #expect(try await Self.join(port: port, from: "127.0.0.3").hasPrefix(#"{"type":"welcome""#))
            let again = try await Self.join(port: port, from: "127.0.0.1")
            // Within the second, 127.0.0.1's bucket has not refilled: only forgetting it admits it.
            try #require(ContinuousClock.now - emptied < .seconds(1), "the joins took too long to tell")
            if tracked == 2 {
                #expect(again.hasPrefix(#"{"type":"welcome""#), "\(again)")
            } else {
                #expect(again.contains("rate_limited"), "\(again)")
            }
            await server.stop()
        }

        /// Upgrades a raw connection from `source`, says hello, and returns
        /// the server's first text message.
        private static func join(port: Int, from source: String) async throws -> String {
            try await onOwnThread { () throws -> String in
                let socket = try RawSocket(port: port, source: source)
                _ = socket.send(WireFrames.upgradeRequest())
                _ = socket.send(WireFrames.text(#"{"type":"hello","name":"joiner"}"#))
                var received: [UInt8] = []
                while let chunk = socket.receive(timeout: .seconds(5)), !chunk.isEmpty {
                    received += chunk
                    if let text = WireFrames.serverFrames(after: received).first(where: { $0.opcode == 0x1 }) { return text.text }
                }
                return ""
            }
        }
    }
}
