import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import WebSocket


/// Feeds the server's HTTP/handshake pipeline random and mutated requests,
/// split at random points: it must never crash, must always answer or close
/// once the input is complete or too large, and must not grow memory.
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

    static func makePipeline() throws -> EmbeddedChannel {
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
            sslContext: nil, connections: ConnectionRegistry(), sink: sink)
        return channel
    }

    /// Feeds `bytes` in random chunks; returns whether the pipeline answered or closed.
    static func feed(_ bytes: [UInt8], using random: inout WebSocketMaskingKeyGenerator) throws -> Bool {
        let channel = try makePipeline()
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
        return answered || !stillOpen
    }

    /// Resident set size from /proc (0 where there is none).
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }  // not Linux
        let fields = statm.split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * 4096
    }

    @Test func randomAndMutatedRequestsNeverCrashOrHang() throws {
        var random = WebSocketMaskingKeyGenerator(seed: 0x5EED)
        for seed in Self.seeds {
            #expect(try Self.feed(Array(seed.utf8), using: &random), "no answer to \(seed.debugDescription)")
        }
        // Memory is read from /proc for the whole test process, where other
        // suites run in parallel and allocate too. A leak grows memory in every
        // window of 1,000 requests; others' allocations land in some windows
        // only. So the smallest growth of five windows must stay small: a leak
        // of 4 KiB per request would add 4 MiB to each.
        var unanswered = 0
        var windowGrowths: [Int] = []
        var windowStart = 0
        for iteration in 0..<6000 {
            if iteration % 1000 == 0 {
                let resident = Self.residentBytes()
                if iteration >= 2000 { windowGrowths.append(resident - windowStart) }
                windowStart = resident
            }
            let bytes: [UInt8]
            if Int.random(in: 0..<10, using: &random) == 0 {
                bytes = (0..<Int.random(in: 0...2048, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = Self.mutate(Self.seeds.randomElement(using: &random)!, using: &random)
            }
            if try !Self.feed(bytes, using: &random) { unanswered += 1 }
        }
        windowGrowths.append(Self.residentBytes() - windowStart)
        let smallestGrowth = try #require(windowGrowths.min())
        #expect(smallestGrowth < 4 << 20, "resident memory grew in every window of 1,000 requests: \(windowGrowths) bytes")
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
