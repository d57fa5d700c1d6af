import TestProcessSupport
import NIOCore
import NIOHTTP1
import NIOPosix
import Testing
import WebSocket

@Suite(.timeLimit(.minutes(1))) struct WebSocketClientTests {
    @Test func connectionRefusedNamesHostAndPort() async throws {
        // A port bound but not listening: nobody else can take it meanwhile.
        let reserved = try ReservedPort()
        let port = reserved.port
        await #expect(throws: WebSocketClientError.connectionFailed(host: "127.0.0.1", port: port, reason: "connection refused")) {
            _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/")
        }
        reserved.release()
    }

    @Test func rejectedHandshakeCarriesStatusAndBody() async throws {
        try await withTestServer(routes: [echoRoute()]) { _, port in
            do {
                _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/nowhere")
                Issue.record("connected to a missing route")
            } catch let error as WebSocketHandshakeError {
                #expect(error == .rejected(status: .notFound, body: "no route for /nowhere\n"))
                #expect(error.description == "handshake rejected: 404 Not Found: no route for /nowhere")
            }
        }
    }

    @Test func badAcceptValueIsReported() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(FixedResponder(response:
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: bogus\r\n\r\n"))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = listener.localAddress?.port ?? 0
        do {
            _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/")
            Issue.record("accepted a bogus Sec-WebSocket-Accept")
        } catch let error as WebSocketHandshakeError {
            #expect(error.description.contains("Sec-WebSocket-Accept \"bogus\""))
        }
        try await listener.close()
    }

    @Test(arguments: [
        ("ws://example.com", "example.com", 80, "/", false),
        ("wss://example.com/a?b=1", "example.com", 443, "/a?b=1", true),
        ("ws://127.0.0.1:9001/echo", "127.0.0.1", 9001, "/echo", false),
        ("ws://[::1]:8080?x", "::1", 8080, "/?x", false),
    ])
    func parsesURLs(url: String, host: String, port: Int, path: String, secure: Bool) throws {
        let parsed = try WebSocketURL(url)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
        #expect(parsed.path == path)
        #expect(parsed.isSecure == secure)
    }

    @Test(arguments: ["http://x/", "ws://", "ws://host:0/", "ws://host:99999/", "ws://host/#frag", "ws://[::1/"])
    func rejectsBadURLs(url: String) {
        #expect(throws: WebSocketHandshakeError.self) { try WebSocketURL(url) }
    }
}

/// Answers any request with fixed bytes.
private final class FixedResponder: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let response: String
    init(response: String) { self.response = response }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response)), promise: nil)
    }
}
