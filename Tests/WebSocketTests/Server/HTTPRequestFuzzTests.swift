import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import WebSocket


/// Feeds the server's HTTP/handshake pipeline random and mutated requests,
/// split at random points: it must never crash, must always answer or close
/// once the input is complete or too large, and must leave nothing behind:
/// every connection it opened is freed and none stays counted as open.
@Suite(.timeLimit(.minutes(1))) struct HTTPRequestFuzzTests {
    static let seeds: [String] = [
        upgradeRequest(),
        upgradeRequest(extraHeaders: "Sec-WebSocket-Protocol: a, b\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"),
        "GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
        "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
        "GET /missing HTTP/1.0\r\n\r\n",
        "GET /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    ]

    static let tokens: [String] = [
        "\r\n", "\r\n\r\n", ":", " ", ",", "\0", "Upgrade", "websocket", "Connection", "Sec-WebSocket-Key",
        "Sec-WebSocket-Version: 13", "Content-Length: 99999999999", "Transfer-Encoding: chunked", "HTTP/1.1", "GET", "\u{FF}",
    ]

    static func mutate(_ request: String, using random: inout WebSocketMaskingKeyGenerator) -> [UInt8] {
        var bytes = Array(request.utf8)
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1 where !bytes.isEmpty: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &random)))
            case 2: bytes.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: position)
            case 3: bytes = Array(bytes.prefix(position))
            default: bytes.insert(contentsOf: (0..<Int.random(in: 1...32, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, at: position)
            }
        }
        return bytes
    }

    static func makePipeline(connections: ConnectionRegistry = ConnectionRegistry()) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let (_, sink) = AsyncStream<AcceptedConnection>.makeStream()
        let router = ServerRouter(
            webSocketRoutes: [
                WebSocketRoute(path: "/echo", handler: .eventLoop(RecordingEventLoopHandler())),
                WebSocketRoute(path: "/task") { _ in },
            ],
            httpRoutes: [HTTPRoute(path: "/health", methods: [.GET, .POST]) { _, _ in HTTPRouteResponse(status: .ok, body: "ok") }])
        try WebSocketServer.configureChild(
            channel, router: router, configuration: .init(maxRequestHeadSize: 4096, maxRequestBodySize: 1024),
            sslContext: nil, connections: connections, sink: sink)
        return channel
    }

    /// What one fed request left: whether it was answered or closed, and a
    /// weak reference to its channel, which must be gone once the feed returns.
    struct FeedOutcome {
        let answeredOrClosed: Bool
        weak var channel: EmbeddedChannel?
    }

    /// Feeds `bytes` in random chunks to a fresh pipeline counting its
    /// connections in `connections`, then finishes the channel.
    static func feed(
        _ bytes: [UInt8], connections: ConnectionRegistry = ConnectionRegistry(), using random: inout WebSocketMaskingKeyGenerator
    ) throws -> FeedOutcome {
        let channel = try makePipeline(connections: connections)
        var offset = 0
        var answered = false
        while offset < bytes.count, channel.isActive {
            let length = Int.random(in: 1...max(1, min(512, bytes.count - offset)), using: &random)
            _ = try? channel.writeInbound(ByteBuffer(bytes: bytes[offset..<offset + length]))  // parse errors are answered with 400 by the handler
            offset += length
            while let _ = try channel.readOutbound(as: ByteBuffer.self) { answered = true }
            while let _ = try channel.readInbound(as: ByteBuffer.self) {}
        }
        let stillOpen = channel.isActive
        _ = try? channel.finish(acceptAlreadyClosed: true)  // leftovers are irrelevant here
        return FeedOutcome(answeredOrClosed: answered || !stillOpen, channel: channel)
    }

    @Test func randomAndMutatedRequestsNeverCrashOrHang() throws {
        var random = WebSocketMaskingKeyGenerator(seed: 0x5EED)
        for seed in Self.seeds {
            #expect(try Self.feed(Array(seed.utf8), using: &random).answeredOrClosed, "no answer to \(seed.debugDescription)")
        }
        // A leak here is a connection something still holds once it closed: a
        // retain cycle through its handlers, a timer, or the registry of open
        // connections. The process's resident memory cannot show it, since
        // the suites running beside this one allocate too; the channel's own
        // lifetime and the registry's count can, exactly.
        let connections = ConnectionRegistry()
        var unanswered = 0
        var survivors = 0
        for _ in 0..<6000 {
            let bytes: [UInt8]
            if Int.random(in: 0..<10, using: &random) == 0 {
                bytes = (0..<Int.random(in: 0...2048, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = Self.mutate(Self.seeds.randomElement(using: &random)!, using: &random)
            }
            let outcome = try Self.feed(bytes, connections: connections, using: &random)
            if !outcome.answeredOrClosed { unanswered += 1 }
            if outcome.channel != nil { survivors += 1 }
        }
        #expect(survivors == 0, "\(survivors) of 6,000 connections were still alive after they closed")
        #expect(connections.count == 0, "\(connections.count) closed connections are still counted as open")
        // Truncated requests may rightly wait for more bytes; most requests are answered or closed.
        #expect(unanswered < 3000, "\(unanswered) of 6,000 requests got neither an answer nor a close")
    }

    @Test func endlessHeadIsRefusedAtTheLimit() throws {
        let channel = try Self.makePipeline()
        _ = try channel.writeInbound(ByteBuffer(string: "GET /echo HTTP/1.1\r\n"))
        var sent = 0
        while channel.isActive, sent < 1 << 20 {
            _ = try? channel.writeInbound(ByteBuffer(string: "X-Filler: \(String(repeating: "a", count: 100))\r\n"))
            sent += 112
        }
        #expect(!channel.isActive)
        #expect(sent < 8192)
        let response = String(buffer: try #require(try channel.readOutbound(as: ByteBuffer.self)))
        #expect(response.hasPrefix("HTTP/1.1 431"))
    }
}
