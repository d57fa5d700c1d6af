import NIOCore
import NIOEmbedded
import Testing
@testable import WebSocket

/// The real client and server pipelines talking through two in-memory
/// channels: handshake, compression negotiation and messages with no socket.
@Suite(.timeLimit(.minutes(1))) struct InMemoryHandshakeTests {
    /// Moves bytes between the two channels until neither has anything to send.
    static func shuttle(_ a: NIOAsyncTestingChannel, _ b: NIOAsyncTestingChannel) async throws {
        var moved = true
        while moved {
            moved = false
            await a.testingEventLoop.run()
            await b.testingEventLoop.run()
            for (from, to) in [(a, b), (b, a)] {
                while let bytes = try await from.readOutbound(as: ByteBuffer.self) {
                    try await to.writeInbound(bytes)
                    moved = true
                }
            }
        }
    }

    static func connect(
        compression: PerMessageDeflateConfiguration?
    ) async throws -> (server: NIOAsyncTestingChannel, client: NIOAsyncTestingChannel, RecordingEventLoopHandler, WebSocketConnection) {
        let server = NIOAsyncTestingChannel()
        let client = NIOAsyncTestingChannel()
        let recorder = RecordingEventLoopHandler()
        let router = ServerRouter(
            webSocketRoutes: [WebSocketRoute(
                path: "/echo", configuration: .init(compression: compression), handler: .eventLoop(recorder))],
            httpRoutes: [])
        let (_, sink) = AsyncStream<AcceptedConnection>.makeStream()
        try await server.testingEventLoop.executeInContext {
            try WebSocketServer.configureChild(
                server, router: router, configuration: .init(), sslContext: nil, connections: ConnectionRegistry(), sink: sink)
        }
        let promise = client.eventLoop.makePromise(of: WebSocketConnection.self)
        let handshake = WebSocketClientHandshake(host: "memory", path: "/echo", compression: compression)
        try await client.testingEventLoop.executeInContext {
            try WebSocketClient.configure(
                client, handshake: handshake, configuration: .init(compression: compression), options: .init(),
                sslContext: nil, serverName: "memory", eventLoopHandler: nil, promise: promise
            ) { outbound, inbound in
                WebSocketConnection(inbound: inbound!, outbound: outbound)
            }
        }
        try await server.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        try await client.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        try await shuttle(client, server)
        let connection = try await promise.futureResult.get()
        return (server, client, recorder, connection)
    }

    @Test(arguments: [true, false])
    func handshakeAndEchoInMemory(compressed: Bool) async throws {
        let (server, client, recorder, connection) = try await Self.connect(compression: compressed ? .init() : nil)
        #expect(recorder.opened == 1)
        let big = String(repeating: "in memory ", count: 200)
        try await client.testingEventLoop.executeInContext {
            connection.outbound.write(.text(big))
            connection.outbound.write(.binary(ByteBuffer(bytes: [1, 2])))
        }
        try await Self.shuttle(client, server)
        #expect(recorder.messages == [.text(big), .binary(ByteBuffer(bytes: [1, 2]))])
        var iterator = connection.inbound.makeAsyncIterator()
        #expect(await iterator.next()?.text == big)
        #expect(await iterator.next() == .binary(ByteBuffer(bytes: [1, 2])))

        try await client.testingEventLoop.executeInContext {
            connection.outbound.close(code: .normalClosure, reason: "bye", promise: nil)
        }
        try await Self.shuttle(client, server)
        #expect(recorder.closed == [WebSocketCloseStatus(code: .normalClosure, reason: "bye")])
        #expect(!server.isActive)  // the server closes TCP first
    }
}
