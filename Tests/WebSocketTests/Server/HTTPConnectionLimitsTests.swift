import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import WebSocket

/// The HTTP stage's timers (request, keep-alive) and the connection limits,
/// on an embedded pipeline: the bytes each client gets, and when it is closed.
@Suite(.timeLimit(.minutes(1)))
struct HTTPConnectionLimitsTests {
    static func pipeline(
        configuration: WebSocketServerConfiguration = .init(requestTimeout: .seconds(10), keepAliveTimeout: .seconds(30)),
        admission: ConnectionAdmission? = nil, from address: String = "127.0.0.1"
    ) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.connect(to: SocketAddress(ipAddress: address, port: 1)).wait()
        let (_, sink) = AsyncStream<AcceptedConnection>.makeStream()
        let router = ServerRouter(
            webSocketRoutes: [], httpRoutes: [HTTPRoute(path: "/health") { _, _ in HTTPRouteResponse(status: .ok, body: "ok") }])
        try WebSocketServer.configureChild(
            channel, router: router, configuration: configuration, sslContext: nil, connections: ConnectionRegistry(),
            sink: sink, admission: admission)
        return channel
    }

    static func text(_ channel: EmbeddedChannel) throws -> String {
        String(decoding: try channel.readAllOutbound(), as: UTF8.self)
    }

    static let request = "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"

    @Test func aRequestNotCompleteInTimeGets408AndIsClosed() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(ByteBuffer(string: "GET /health HTTP/1.1\r\nHo"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let answer = try Self.text(channel)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nthe request was not complete within 10 s\n"))
        #expect(!channel.isActive)
    }

    @Test func aConnectionThatSendsNothingIsClosedSilently() throws {
        let channel = try Self.pipeline()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(!channel.isActive)
        #expect(try Self.text(channel).isEmpty)
    }

    @Test func anIdleKeptAliveConnectionIsClosedSilently() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(ByteBuffer(string: Self.request))
        #expect(try Self.text(channel).hasPrefix("HTTP/1.1 200 OK\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        #expect(channel.isActive, "closed before the keep-alive timeout")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
        #expect(try Self.text(channel).isEmpty)
    }

    @Test func theNextRequestOnAKeptAliveConnectionHasTheRequestTimeout() throws {
        let channel = try Self.pipeline()
        try channel.writeInbound(ByteBuffer(string: Self.request))
        _ = try Self.text(channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(20))
        try channel.writeInbound(ByteBuffer(string: "GET /he"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))   // 30 s since the response, 10 s since the byte
        #expect(try Self.text(channel).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(!channel.isActive)
    }

    @Test func beyondTheLimitsARequestGets503AndOthersAreServed() throws {
        let admission = ConnectionAdmission(maxConnections: 3, maxPerAddress: 1)
        let first = try Self.pipeline(admission: admission)
        let second = try Self.pipeline(admission: admission)
        try second.writeInbound(ByteBuffer(string: Self.request))
        let refused = try Self.text(second)
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(refused.contains("\r\nRetry-After: 1\r\n"))
        #expect(refused.hasSuffix("too many connections from 127.0.0.1 (at most 1); close some first\n"))
        #expect(!second.isActive)

        let other = try Self.pipeline(admission: admission, from: "127.0.0.2")
        try other.writeInbound(ByteBuffer(string: Self.request))
        #expect(try Self.text(other).hasPrefix("HTTP/1.1 200 OK\r\n"))
        let third = try Self.pipeline(admission: admission, from: "127.0.0.3")
        let full = try Self.pipeline(admission: admission, from: "127.0.0.4")
        try full.writeInbound(ByteBuffer(string: Self.request))
        #expect(try Self.text(full).hasSuffix("the server is at its limit of 3 connections; try again later\n"))
        #expect(admission.count == 3)

        try first.close().wait()
        try third.close().wait()
        first.embeddedEventLoop.run()
        third.embeddedEventLoop.run()
        #expect(admission.count == 1)
        let again = try Self.pipeline(admission: admission)
        try again.writeInbound(ByteBuffer(string: Self.request))
        #expect(try Self.text(again).hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test func readsAreHeldBackWhileTheAnswersWaitForTheSocket() throws {
        let channel = EmbeddedChannel()
        let counter = WebSocketOutboundLimitTests.ReadCounter()
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        let (_, sink) = AsyncStream<AcceptedConnection>.makeStream()
        try WebSocketServer.configureChild(
            channel, router: ServerRouter(webSocketRoutes: [], httpRoutes: []), configuration: .init(), sslContext: nil,
            connections: ConnectionRegistry(), sink: sink)
        let before = counter.reads
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        channel.read()
        #expect(counter.reads == before, "read while answers wait for the socket")
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        #expect(counter.reads == before + 1, "the held-back read was not resumed")
    }

    @Test func addressesAreCountedPerIPv4AddressAndIPv6Network() throws {
        func key(_ ip: String) throws -> ClientAddressKey { ClientAddressKey(try SocketAddress(ipAddress: ip, port: 1)) }
        #expect(try key("2001:db8:1:2::1") == key("2001:db8:1:2:ffff::9"))
        #expect(try key("2001:db8:1:2::1") != key("2001:db8:1:3::1"))
        #expect(try key("2001:db8:1:2::1").description == "2001:db8:1:2::/64")
        #expect(try key("::ffff:203.0.113.7") == key("203.0.113.7"))
        #expect(try key("203.0.113.7").description == "203.0.113.7")
        #expect(try key("203.0.113.7") != key("203.0.113.8"))
    }
}
