import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

extension AbuseTests {
    /// Hardening: what a client makes the server send is bounded even when the
    /// client reads nothing. A client that sent pings and read nothing (before
    /// `hello`, with `--token`) grew the server by 285 MB with 24 MB of pings:
    /// now a connection (WebSocket or plain HTTP) stops reading while its
    /// answers wait, and above `--max-outbound-bytes` queued for it, a WebSocket
    /// is closed with 1008.
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

        @Test func pingsThatAreNeverReadStallTheSenderNotTheServer() async throws {
            // A long hello timeout: the flood must not be cut short by it on a busy machine.
            let (server, port) = try await ServeProcess.serving(["--token", "s3cret", "--hello-timeout", "120"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", token: "s3cret", name: "bystander")
            let before = try #require(server.residentBytes)

            let flooder = try await onOwnThread { try RawSocket(port: port, receiveBuffer: 4_096) }
            let limit = 48 << 20
            let sent = await onOwnThread { Self.flood(flooder, limit: limit) }
            #expect(sent < limit, "the server read all \(sent) bytes of pings from a client that reads nothing")

            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")
            let after = try #require(server.residentBytes)
            #expect(after - before < 24 << 20, "RSS grew from \(before) to \(after) bytes after \(sent) bytes of pings")
            flooder.disconnect()
            await server.stop()
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

        @Test func aConnectionAboveItsOutboundCapIsClosed() async throws {
            let (server, port) = try await ServeProcess.serving(["--max-outbound-bytes", "\(1 << 20)", "--hello-timeout", "120"])
            let bystander = try await ProtocolClient.joined("ws://127.0.0.1:\(port)/sync", name: "bystander")
            let before = try #require(server.residentBytes)

            // A moderate receive buffer keeps the reading fast (a tiny one makes
            // loopback TCP crawl) and the backlog short.
            let flooder = try await onOwnThread { try RawSocket(port: port, receiveBuffer: 65_536) }
            let sent = await onOwnThread { Self.flood(flooder, limit: 48 << 20) }
            #expect(sent < 48 << 20, "the server read all \(sent) bytes of pings")
            // Now read: the pongs queued before the cap, the close frame, the end.
            // The close timeout drops the connection 5 s after the cap, with what
            // is still queued (the close frame too) when the reader is slow: on a
            // quiet machine it gets the close frame (and always does in
            // WebSocketOutboundLimitTests, on an embedded channel), on a busy
            // one it may only see the end.
            let (received, closed) = await onOwnThread { flooder.receiveUntilClosed(timeout: .seconds(15)) }
            #expect(closed, "the server kept the connection open after \(sent) bytes of pings")
            let frames = WireFrames.serverFrames(after: received)
            if let close = frames.first(where: { $0.opcode == 0x8 }) {
                #expect(close.closeCode == 1008)
                #expect(close.text == "more than 1048576 bytes queued for this connection")
                #expect(frames.last?.opcode == 0x8, "frames after the close")
            }

            let delay = try await Self.roundTrip(bystander)
            #expect(delay < .seconds(2), "the bystander waited \(delay)")
            let after = try #require(server.residentBytes)
            #expect(after - before < 24 << 20, "RSS grew from \(before) to \(after) bytes")
            await server.stop()
            let refused = try await CLI.run(["serve", "--memory", "--max-outbound-bytes", "65536"])
            #expect(refused.status == 2)
            #expect(refused.errors.contains("--max-outbound-bytes 65536 is below 1048576"))
        }
    }
}
