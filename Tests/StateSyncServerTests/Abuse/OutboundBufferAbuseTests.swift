import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: what a client makes the server send is bounded even when the
    /// client reads nothing. A client that sent pings and read nothing (before
    /// `hello`, with `--token`) grew the server by 285 MB with 24 MB of pings:
    /// now a connection (WebSocket or plain HTTP) stops reading while its
    /// answers wait, past a few unsent pongs only the latest is answered, and
    /// above `--max-outbound-bytes` queued for it, a WebSocket is closed with
    /// 1008.
    @Suite(.timeLimit(.minutes(1)))
    struct OutboundBufferAbuseTests {
        /// 64 KiB of pings with 125-byte payloads (each answered by a pong as large).
        static let pings: [UInt8] = (0..<500).flatMap { _ in
            WireFrames.clientFrame(opcode: 0x9, [UInt8](repeating: 0x70, count: 125))
        }

        /// Upgrades, then sends pings until `limit` bytes are out or a send
        /// blocks for 2 s (the server stopped reading); returns the bytes sent.
        static func flood(_ socket: RawSocket, limit: Int) -> Int {
            guard socket.send(WireFrames.upgradeRequest()) else { return 0 }
            var sent = 0
            while sent < limit, socket.send(pings) {
                sent += pings.count
            }
            return sent
        }

        /// `get` → `value` on `client`, timed. (A bystander is expected within
        /// 2 s: it is a few milliseconds on a quiet machine, about one second
        /// while the whole suite runs on two cores.)
        static func roundTrip(_ client: ProtocolClient) async throws -> Duration {
            let start = ContinuousClock.now
            try await client.send(#"{"type":"get","id":"b","path":"/counters"}"#)
            _ = try await client.receive("value")
            return ContinuousClock.now - start
        }

        @Test func pingsThatAreNeverReadCostTheServerLittle() async throws {
            // A long hello timeout: the flood must not be cut short by it on a busy machine.
            // No ping limit: what is measured is what unread pongs cost.
            let (server, port) = try await ServeProcess.serving(["--token", "s3cret", "--hello-timeout", "120", "--max-pings-per-second", "0"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", token: "s3cret", name: "bystander")
            let before = try #require(server.residentBytes)

            // The server answers a few of them and the latest (RFC 6455 §5.5.3), never a pong per ping.
            let flooder = try await onOwnThread { try RawSocket(port: port, receiveBuffer: 4_096) }
            let sent = await onOwnThread { Self.flood(flooder, limit: 16 << 20) }

            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")
            let after = try #require(server.residentBytes)
            #expect(after - before < 24 << 20, "RSS grew from \(before) to \(after) bytes after \(sent) bytes of pings")
            flooder.disconnect()
            await server.stop()
        }

        /// 60 KB of empty pings: each answered by a two-byte pong, whose
        /// buffer and pending write cost a hundred times its payload.
        static let emptyPings: [UInt8] = (0..<10_000).flatMap { _ in WireFrames.clientFrame(opcode: 0x9, []) }

        /// Sockets sending empty pings and reading nothing grew the server by
        /// about 240 MB each (a million pings apiece), and much of it stayed
        /// after they closed: the pongs were counted by their payload against
        /// the caps. Now past a few unsent pongs only the latest is kept (RFC
        /// 6455 §5.5.3): each connection costs less than its outbound cap, the
        /// last ping is answered (so the server read them all), and the memory
        /// is back once they are gone.
        @Test func floodsOfEmptyPingsCostLessThanTheCapAndTheMemoryComesBack() async throws {
            // No ping limit (aPeerOverThePingLimitIsClosedWith1008 has it): what is measured is what unread pongs cost.
            let (server, port) = try await ServeProcess.serving(["--hello-timeout", "120", "--max-pings-per-second", "0"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            let before = try #require(server.residentBytes)

            let floods = 2
            let chunks = 100   // a million pings each
            let last = WireFrames.clientFrame(opcode: 0x9, Array("end".utf8))
            let flooders = try await onOwnThread { try (0..<floods).map { _ in try RawSocket(port: port, receiveBuffer: 4_096) } }
            let answered = await withTaskGroup(of: Bool.self) { group in
                for flooder in flooders {
                    group.addTask {
                        await onOwnThread {
                            guard flooder.send(WireFrames.upgradeRequest()) else { return false }
                            for _ in 0..<chunks where !flooder.send(Self.emptyPings) { return false }
                            return flooder.send(last) && Self.receivesPong(of: "end", on: flooder)
                        }
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(answered == floods, "the server answered the last ping of \(answered) of \(floods) floods")
            let during = try #require(server.residentBytes)
            let perConnection = (during - before) / floods
            #expect(perConnection < 8 << 20, "RSS grew from \(before) to \(during) bytes: \(perConnection) per flooding connection")
            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")

            for flooder in flooders { flooder.disconnect() }
            #expect(try await eventually {
                try await HTTPGet.get(port: port, path: "/metrics").body.contains("statesync_connections 1.0")
            }, "the flooding connections were not closed")
            let after = try #require(server.residentBytes)
            #expect(after - before < 16 << 20, "RSS was \(before) bytes before the floods and \(after) after they closed")
            await server.stop()
        }

        /// A peer sending pings as fast as it can, reading their pongs, kept
        /// its event loop busy for as long as it liked: past 100 in a second
        /// the server closes it with 1008, and the bystander is not delayed.
        @Test func aPeerOverThePingLimitIsClosedWith1008() async throws {
            let (server, port) = try await ServeProcess.serving(["--hello-timeout", "120"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            let flooder = try await onOwnThread { try RawSocket(port: port, receiveBuffer: 65_536) }
            let closed = await onOwnThread {
                guard flooder.send(WireFrames.upgradeRequest()) else { return false }
                _ = flooder.send(Self.emptyPings)   // 10,000 pings at once; the server may close before it has them all
                return Self.receivesClose(1008, reason: "more than 100 pings in one second", on: flooder)
            }
            #expect(closed, "the flooder was not closed with 1008")
            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")
            #expect(try await eventually {
                try await HTTPGet.get(port: port, path: "/metrics").body.contains("statesync_connections 1.0")
            }, "the flooding connection was not closed")
            flooder.disconnect()
            await server.stop()
        }

        /// Reads `socket` until a close frame with `code` and `reason` has
        /// arrived (`true`), or it closes without one, or 30 s pass.
        static func receivesClose(_ code: UInt16, reason: String, on socket: RawSocket) -> Bool {
            let payload: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
            let frame: [UInt8] = [0x88, UInt8(payload.count)] + payload
            let deadline = ContinuousClock.now + .seconds(30)
            var received: [UInt8] = []
            while ContinuousClock.now < deadline, let chunk = socket.receive(timeout: .seconds(30)), !chunk.isEmpty {
                received += chunk
                if received.count >= frame.count, received.suffix(frame.count).elementsEqual(frame) { return true }
            }
            return false
        }

        /// Reads `socket` until it ends with a pong of `payload` (`true`), or
        /// it closes, or 30 s pass.
        static func receivesPong(of payload: String, on socket: RawSocket) -> Bool {
            let pong: [UInt8] = [0x8A, UInt8(payload.utf8.count)] + Array(payload.utf8)
            let deadline = ContinuousClock.now + .seconds(30)
            var received: [UInt8] = []
            while ContinuousClock.now < deadline, let chunk = socket.receive(timeout: .seconds(30)), !chunk.isEmpty {
                received += chunk
                if received.count >= pong.count, received.suffix(pong.count).elementsEqual(pong) { return true }
                received = Array(received.suffix(pong.count))
            }
            return false
        }

        @Test func pipelinedRequestsThatAreNeverReadStallTheSenderNotTheServer() async throws {
            let (server, port) = try await ServeProcess.serving()
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            let before = try #require(server.residentBytes)

            let requests = Array(String(repeating: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 1_000).utf8)
            let pipeliner = try await onOwnThread { try RawSocket(port: port, receiveBuffer: 4_096) }
            // About 300,000 requests: a server that answers them all, unread, holds
            // tens of MB (and needs most of the time limit in a debug build).
            let limit = 12 << 20
            let sent = await onOwnThread {
                var sent = 0
                while sent < limit, pipeliner.send(requests) { sent += requests.count }
                return sent
            }
            #expect(sent < limit, "the server read all \(sent) bytes of requests from a client that reads no answer")

            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")
            let after = try #require(server.residentBytes)
            #expect(after - before < 24 << 20, "RSS grew from \(before) to \(after) bytes after \(sent) bytes of requests")
            pipeliner.disconnect()
            await server.stop()
        }

        /// Answers a client never reads wait on the server (deferred, not
        /// queued on the socket, past the high-water mark) within their bounds.
        /// The outbound cap that closes a connection with 1008 is the last
        /// line behind them, which no request reaches any more (pongs were the
        /// last that did): WebSocketOutboundLimitTests shows it on an embedded
        /// channel.
        @Test func answersThatAreNeverReadAreHeldWithinTheirBounds() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-outbound-bytes", "\(1 << 20)", "--hello-timeout", "120"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            // A chat of 100 messages of 500 characters: a `get` of the state answers 50 KB.
            let text = String(repeating: "x", count: 500)
            for index in 0..<100 {
                try await bystander.send(.object(["type": "dispatch", "id": .string("m\(index)"),
                                                  "action": ["type": "postMessage", "text": .string(text)]]))
                _ = try await bystander.receive("ack")
            }
            let before = try #require(server.residentBytes)

            // 300 gets in one go (within the message burst): 15 MB of answers, never read.
            let gets = (0..<300).flatMap { WireFrames.text(#"{"type":"get","id":"g\#($0)","path":""}"#) }
            let flooder = try await onOwnThread { try RawSocket(port: port, receiveBuffer: 4_096) }
            #expect(await onOwnThread {
                flooder.send(WireFrames.upgradeRequest()) && flooder.send(WireFrames.text(#"{"type":"hello"}"#)) && flooder.send(gets)
            })
            // The server took the connection and answers (the flooder reads only this much).
            let first = await onOwnThread { flooder.receive(upTo: 4_096) }
            #expect(first.map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.1 101") } == true)

            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")
            let after = try #require(server.residentBytes)
            #expect(after - before < 24 << 20, "RSS grew from \(before) to \(after) bytes")
            flooder.disconnect()
            await server.stop()
            let refused = try await CLI.run(["serve", "--memory", "--max-outbound-bytes", "65536"])
            #expect(refused.status == 2)
            #expect(refused.errors.contains("--max-outbound-bytes 65536 is below 1048576"))
        }
    }
}
