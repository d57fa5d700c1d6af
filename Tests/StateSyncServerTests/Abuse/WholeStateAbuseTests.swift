import Foundation
import StateSyncCore
import StateSyncTestSupport
import Testing
import WebSocket

extension AbuseTests {
    /// Hardening (issue 11, item 4): answers carrying a whole value (`get ""`,
    /// a snapshot of `""`) are serialized off the sequencer and count against
    /// the connection's outbound budget, and the answers held back for a client
    /// that does not read are bounded.
    @Suite(.timeLimit(.minutes(1)))
    struct WholeStateAbuseTests {
        /// Rates high enough for the filler to grow the state quickly: its
        /// ~4.5 MB of dispatches would pass the default byte rate (1 MiB/s,
        /// bursts of 2 MiB) whenever the server acks them in under 2.5 s.
        static let rates = ["--messages-per-second", "100000", "--burst", "100000", "--bytes-per-second", "100000000"]

        /// A client that takes messages of up to 64 MiB, buffers at most two
        /// before its socket stops being read, and does not compress (so the
        /// answers it does not read take their full size on the server).
        static func nonReader(_ url: String) async throws -> ProtocolClient {
            var configuration = WebSocketConfiguration()
            configuration.compression = nil
            configuration.maxMessageSize = 64 << 20
            configuration.maxFrameSize = 64 << 20
            return try await ProtocolClient.joined(
                url, name: "hoarder", configuration: configuration,
                options: WebSocketChannelOptions(inboundHighWatermark: 2, inboundLowWatermark: 1))
        }

        /// Grows the board by `count` counters with ~100-character names
        /// (~1.2 MB of JSON per 10,000), 500 dispatches in flight at a time.
        static func grow(_ url: String, counters count: Int) async throws {
            let filler = try await ProtocolClient.joined(url, name: "filler")
            let padding = String(repeating: "x", count: 90)
            for chunk in stride(from: 0, to: count, by: 500) {
                let end = min(count, chunk + 500)
                for index in chunk..<end {
                    try await filler.send(.object([
                        "type": "dispatch", "id": .string("f\(index)"),
                        "action": ["type": "increment", "counter": .string("\(index)-\(padding)")],
                    ]))
                }
                for _ in chunk..<end { _ = try await filler.receive("ack") }
            }
            try await filler.close()
        }

        /// The dispatch → ack times of `count` increments sent one after another.
        static func ackTimes(_ client: ProtocolClient, count: Int) async throws -> [Duration] {
            var times: [Duration] = []
            for index in 0..<count {
                let start = ContinuousClock.now
                try await client.send(.object([
                    "type": "dispatch", "id": .string("b\(index)"), "action": ["type": "increment", "counter": "bystander"],
                ]))
                _ = try await client.receive("ack")
                times.append(.now - start)
            }
            return times
        }

        @Test func wholeStateAnswersForAClientThatNeverReadsNeitherStallNorGrowTheServer() async throws {
            let (server, port) = try await ServeProcess.serving(Self.rates)
            let url = "ws://127.0.0.1:\(port)/sync"
            try await Self.grow(url, counters: 8_000)
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            _ = try await Self.ackTimes(bystander, count: 5)
            let before = try #require(server.residentBytes)

            // 250 whole-state answers (~1 MB each) asked by a client that reads none of them.
            let hoarder = try await Self.nonReader(url)
            for index in 0..<250 {
                let request: JSONValue = index.isMultiple(of: 5)
                    ? .object(["type": "subscribe", "id": .string("s\(index)"), "path": ""])
                    : .object(["type": "get", "id": .string("g\(index)"), "path": ""])
                try await hoarder.send(request)
            }
            // Before: one dispatch waited ~4 s behind the 250 encodings, and the
            // answers held back took ~200 MB.
            let times = try await Self.ackTimes(bystander, count: 100).sorted()
            #expect(times[99] < .milliseconds(250), "bystander dispatch → ack: slowest \(times[99]), median \(times[50])")
            let after = try #require(server.residentBytes)
            #expect(after - before < 100 << 20, "the server's RSS grew by \((after - before) >> 20) MiB")
            await server.stop()
        }

        @Test func aClientThatNeverReadsIsClosedOnceTooManyAnswersWait() async throws {
            let (server, port) = try await ServeProcess.serving(Self.rates + ["--max-deferred-answers", "50"])
            let url = "ws://127.0.0.1:\(port)/sync"
            try await Self.grow(url, counters: 2_000)
            let hoarder = try await Self.nonReader(url)
            var sent = 0
            // The server may close it before all are sent: then sending fails.
            while sent < 300, (try? await hoarder.send(.object(["type": "get", "id": .string("g\(sent)"), "path": ""]))) != nil {
                sent += 1
            }
            let bystander = try await ProtocolClient.joined(url, name: "bystander")
            let times = try await Self.ackTimes(bystander, count: 20)
            #expect(times.max()! < .milliseconds(250), "bystander dispatch → ack, slowest \(times.max()!)")

            // What was sent before is delivered, then the close: 1008.
            let received = try await hoarder.drainUntilClosed()
            #expect(hoarder.closeCode == 1008)
            #expect(received.count < sent)
            await server.stop()
        }

        @Test func aWholeStateLargerThanTheOutboundCapReachesAReadingClient() async throws {
            // ~4 MB of state (counters named with 100 four-byte characters), more
            // than the socket's buffers take at once, against a 1 MiB cap on what
            // may wait for a socket: one answer larger than the cap still goes out.
            let (server, port) = try await ServeProcess.serving(Self.rates + ["--max-outbound-bytes", "1048576"])
            let url = "ws://127.0.0.1:\(port)/sync"
            let filler = try await ProtocolClient.joined(url, name: "filler")
            let name = String(repeating: "\u{1F600}", count: 96)
            for chunk in stride(from: 0, to: 10_000, by: 500) {
                for index in chunk..<(chunk + 500) {
                    try await filler.send(.object([
                        "type": "dispatch", "id": .string("c\(index)"),
                        "action": ["type": "increment", "counter": .string("\(name)\(index)")],
                    ]))
                }
                for _ in 0..<500 { _ = try await filler.receive("ack") }
            }
            var configuration = WebSocketConfiguration()
            configuration.compression = nil
            configuration.maxMessageSize = 64 << 20
            configuration.maxFrameSize = 64 << 20
            let reader = try await ProtocolClient.joined(url, name: "reader", configuration: configuration)
            for index in 0..<2 {
                try await reader.send(.object(["type": "get", "id": .string("g\(index)"), "path": ""]))
                let answer = try await reader.receive("value")
                #expect(answer["value"]?["counters"]?.objectValue?.count == 10_000)
            }
            await server.stop()
        }
    }
}
