import Foundation
import Synchronization
import StateSyncCore
import StateSyncTestSupport
import Testing
import WebSocket

extension AbuseTests {
    /// Hardening (issue 11, item 4): a connection's bytes are rate-limited as
    /// well as its messages (`--bytes-per-second`), so large messages sent
    /// within the message rate cannot keep the server parsing and deciding.
    @Suite(.timeLimit(.minutes(1)))
    struct ByteRateAbuseTests {
        /// Set once the flood has been sent.
        private final class Done: Sendable {
            let flag = Atomic(false)
        }

        /// How many large dispatches the abuser sends.
        private static let flood = 120

        @Test func largeMessagesWithinTheMessageRateAreRefusedByTheirBytes() async throws {
            // A message rate far above the flood's, so only its bytes can refuse it.
            let (server, port) = try await ServeProcess.serving(["--messages-per-second", "100000", "--burst", "100000"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            // 120 dispatches of ~900 KB: each is parsed, decoded and rejected
            // invalid_action unless refused by its bytes.
            let text = String(repeating: "x", count: 900_000)
            let done = Done()
            let started = ContinuousClock.now
            let flood = Task { () async throws -> [JSONValue] in
                let abuser = try await ProtocolClient.joined(url, name: "abuser")
                for index in 0..<Self.flood {
                    let dispatch: JSONValue = .object([
                        "type": "dispatch", "id": .string("a\(index)"), "action": ["type": "postMessage", "text": .string(text)],
                    ])
                    guard (try? await abuser.send(dispatch)) != nil else { break }
                }
                done.flag.store(true, ordering: .releasing)
                // One answer each (closed after 100 refusals in a row).
                var answers: [JSONValue] = []
                while answers.count < Self.flood, let answer = try await abuser.next() { answers.append(answer) }
                return answers
            }
            // The bystander dispatches for as long as the flood lasts.
            var times: [Duration] = []
            var index = 0
            while times.count < 20 || !done.flag.load(ordering: .acquiring) {
                let start = ContinuousClock.now
                try await bystander.send(.object([
                    "type": "dispatch", "id": .string("b\(index)"), "action": ["type": "increment", "counter": "hits"],
                ]))
                _ = try await bystander.receive("ack")
                times.append(.now - start)
                index += 1
            }
            let answers = try await flood.value
            let elapsed = ContinuousClock.now - started
            times.sort()
            // The median and the 90th percentile: a bystander held up by the
            // flood is slow for as long as it lasts, while the slowest few
            // round trips on a loaded test machine measure the machine.
            let median = times[times.count / 2]
            let p90 = times[times.count * 9 / 10]
            #expect(median < .milliseconds(100) && p90 < .seconds(1), "bystander dispatch → ack median \(median), p90 \(p90) of \(times.count)")

            // 2 MiB at once, then 1 MiB/s: the flood takes seconds, so most are refused.
            let rateLimited = answers.filter { $0["code"] == "rate_limited" }.count
            #expect(rateLimited > Self.flood / 2, "\(rateLimited) of \(Self.flood) refused in \(elapsed)")
            await server.stop()
        }
    }
}
