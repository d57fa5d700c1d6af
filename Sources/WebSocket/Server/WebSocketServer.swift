public import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A WebSocket server on SwiftNIO: one listening port serving plain HTTP routes and any number of WebSocket
/// paths, optionally over TLS.
///
/// ```swift
/// let server = WebSocketServer(
///     configuration: .init(host: "0.0.0.0", port: 8080),
///     routes: [WebSocketRoute(path: "/echo") { connection in
///         for try await message in connection.inbound { try await connection.outbound.send(message) }
///     }],
///     httpRoutes: [HTTPRoute(path: "/health") { _, _ in .init(status: .ok, body: "ok\n") }])
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await server.run() }
///     print("listening on", try await server.waitUntilStarted())
/// }
/// ```
///
/// ``run()`` binds and serves until ``shutdown()`` or cancellation; it then stops accepting, closes each
/// WebSocket with 1001, waits up to the grace period for their close handshakes, drops the rest, and waits
/// for all handler tasks.
public final class WebSocketServer: Sendable {
    private enum Phase {
        case idle
        case starting([CheckedContinuation<SocketAddress, any Error>])
        case running(any Channel, SocketAddress)
        case stopped((any Error)?)
    }

    /// How the server listens.
    public let configuration: WebSocketServerConfiguration
    private let router: ServerRouter
    private let group: any EventLoopGroup
    private let ownsGroup: Bool
    private let phase = Mutex(Phase.idle)
    private let connections = ConnectionRegistry()
    private let admission: ConnectionAdmission
    private let sslContext: NIOSSLContext?
    private let accepted: AsyncStream<AcceptedConnection>
    private let acceptedSink: AsyncStream<AcceptedConnection>.Continuation
    private let shutdownRequested: AsyncStream<Void>.Continuation
    private let shutdownSignal: AsyncStream<Void>

    /// Creates a server. Pass `group` to share event loops with other code;
    /// by default the server creates one thread per core and shuts it down
    /// when ``run()`` returns. Throws when the TLS configuration is invalid.
    public init(
        configuration: WebSocketServerConfiguration = .init(),
        routes: [WebSocketRoute],
        httpRoutes: [HTTPRoute] = [],
        group: (any EventLoopGroup)? = nil
    ) throws {
        self.configuration = configuration
        self.router = ServerRouter(webSocketRoutes: routes, httpRoutes: httpRoutes)
        self.group = group ?? MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        self.ownsGroup = group == nil
        self.sslContext = try configuration.tls.map { try NIOSSLContext(configuration: $0) }
        self.admission = ConnectionAdmission(
            maxConnections: configuration.maxConnections, maxPerAddress: configuration.maxConnectionsPerAddress)
        (accepted, acceptedSink) = AsyncStream.makeStream()
        (shutdownSignal, shutdownRequested) = AsyncStream.makeStream()
    }

    /// The bound address, once listening. Throws when binding failed.
    public func waitUntilStarted() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<SocketAddress, any Error>? = phase.withLock { phase in
                switch phase {
                case .idle:
                    phase = .starting([continuation])
                    return nil
                case .starting(var waiters):
                    waiters.append(continuation)
                    phase = .starting(waiters)
                    return nil
                case .running(_, let address):
                    return .success(address)
                case .stopped(let error):
                    return .failure(error ?? WebSocketServerError.notRunning)
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Binds and serves until ``shutdown()`` is called or the task is
    /// cancelled, then shuts down gracefully. Task-route handlers run as
    /// child tasks of this call. Call it once per server.
    public func run() async throws {
        let channel: any Channel
        do {
            channel = try await bind()
        } catch {
            finishStarting(.failure(error))
            await shutdownOwnedGroup()
            throw error
        }
        let address = try channel.localAddress ?? SocketAddress(ipAddress: configuration.host, port: configuration.port)
        finishStarting(.success((channel, address)))

        await withDiscardingTaskGroup { group in
            group.addTask {
                await withTaskCancellationHandler {
                    for await _ in self.shutdownSignal { break }
                } onCancel: {
                    self.shutdownRequested.finish()
                }
                await self.drain(listener: channel)
                self.acceptedSink.finish()
            }
            for await accepted in accepted {
                group.addTask { await Self.serve(accepted.connection, with: accepted.handler) }
            }
        }
        phase.withLock { $0 = .stopped(nil) }
        await shutdownOwnedGroup()
    }

    /// Asks ``run()`` to stop: no new connections, 1001 to open WebSockets.
    /// Returns at once; `run()` returns when the shutdown is complete.
    public func shutdown() {
        shutdownRequested.finish()
    }

    /// The number of open WebSocket connections.
    public var connectionCount: Int { connections.count }

    private static func serve(
        _ connection: WebSocketConnection, with handler: @Sendable (WebSocketConnection) async throws -> Void
    ) async {
        do {
            try await handler(connection)
            connection.outbound.close(code: .normalClosure, reason: "", promise: nil)
        } catch {
            connection.outbound.close(code: .internalError, reason: "", promise: nil)
        }
    }

    private func finishStarting(_ result: Result<(any Channel, SocketAddress), any Error>) {
        let waiters = phase.withLock { phase -> [CheckedContinuation<SocketAddress, any Error>] in
            var waiters: [CheckedContinuation<SocketAddress, any Error>] = []
            if case .starting(let pending) = phase { waiters = pending }
            switch result {
            case .success(let (channel, address)): phase = .running(channel, address)
            case .failure(let error): phase = .stopped(error)
            }
            return waiters
        }
        for waiter in waiters {
            waiter.resume(with: result.map(\.1))
        }
    }

    private func drain(listener: any Channel) async {
        try? await listener.close()  // already closed only if the listener failed; nothing to report then
        connections.closeAll(code: .goingAway, reason: "server shutting down")
        let deadline = ContinuousClock.now + .nanoseconds(configuration.shutdownGracePeriod.nanoseconds)
        let closed = await connections.waitUntilEmpty(deadline: deadline)
        if !closed {
            connections.dropAll()
            _ = await connections.waitUntilEmpty(deadline: .now + .seconds(1))
        }
    }

    private func shutdownOwnedGroup() async {
        guard ownsGroup else { return }
        try? await group.shutdownGracefully()  // fails only if already shut down
    }

    private func bind() async throws -> any Channel {
        let router = self.router
        let configuration = self.configuration
        let sslContext = self.sslContext
        let connections = self.connections
        let admission = self.admission
        let sink = self.acceptedSink
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: configuration.backlog)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.maxMessagesPerRead, value: configuration.acceptsPerRead)
            .serverChannelInitializer { channel in
                // Without it, an accept that fails (out of descriptors) is
                // retried at once, forever: the event loop spins.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoff(
                        pause: configuration.acceptBackoff, paused: configuration.acceptPaused))
                }
            }
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(
                .recvAllocator,
                value: AdaptiveRecvByteBufferAllocator(
                    minimum: min(64, configuration.initialReadBufferSize), initial: configuration.initialReadBufferSize,
                    maximum: max(65_536, configuration.initialReadBufferSize)))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configureChild(
                        channel, router: router, configuration: configuration, sslContext: sslContext,
                        connections: connections, sink: sink, admission: admission)
                }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
    }

    static func configureChild(
        _ channel: any Channel, router: ServerRouter, configuration: WebSocketServerConfiguration,
        sslContext: NIOSSLContext?, connections: ConnectionRegistry,
        sink: AsyncStream<AcceptedConnection>.Continuation, admission: ConnectionAdmission? = nil
    ) throws {
        let pipeline = channel.pipeline.syncOperations
        if let sslContext {
            try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
        }
        // Beyond a connection limit the request is still read (so that the
        // client gets the answer, not a reset), then refused with 503.
        var filter = configuration.requestFilter
        if let refusal = admission?.admit(channel) {
            let response = HTTPRouteResponse(status: .serviceUnavailable, headers: ["Retry-After": "1"], body: refusal.reason + "\n")
            filter = { _ in response }
        }
        let connectionGuard = HTTPConnectionGuard(
            requestTimeout: configuration.requestTimeout, keepAliveTimeout: configuration.keepAliveTimeout)
        let limiter = RequestHeadSizeLimiter(limit: configuration.maxRequestHeadSize)
        let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
        let encoder = HTTPResponseEncoder()
        let http = HTTPServerHandler(
            router: router, limiter: limiter, connectionGuard: connectionGuard, decoder: decoder, encoder: encoder,
            maxBodySize: configuration.maxRequestBodySize, filter: filter
        ) { channel, route, acceptance, after in
            func installEventLoop(_ makeHandler: (WebSocketOutbound) -> any WebSocketEventLoopHandler) throws {
                _ = try WebSocketChannelHandler<EventLoopDelivery>.install(
                    on: channel, after: after, role: .server, configuration: route.configuration, options: route.options,
                    subprotocol: acceptance.subprotocol, compression: acceptance.compression, registry: connections,
                    handler: makeHandler)
            }
            switch route.handler {
            case .task(let handler):
                let connection = try WebSocketChannelHandler<TaskDelivery>.install(
                    on: channel, after: after, role: .server, configuration: route.configuration, options: route.options,
                    subprotocol: acceptance.subprotocol, compression: acceptance.compression, registry: connections)
                sink.yield(AcceptedConnection(connection: connection, handler: handler))
            case .eventLoop(let handler):
                try installEventLoop { _ in handler }
            case .eventLoopPerConnection(let makeHandler):
                try installEventLoop(makeHandler)
            }
        }
        try pipeline.addHandlers([connectionGuard, limiter, decoder, encoder, http])
    }
}

/// An upgraded connection waiting for its task-route handler to start.
struct AcceptedConnection: Sendable {
    let connection: WebSocketConnection
    let handler: @Sendable (WebSocketConnection) async throws -> Void
}

/// Errors of ``WebSocketServer`` itself.
public struct WebSocketServerError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Equatable { case notRunning }
    private let base: Base

    /// The server is not running (it stopped, or `run()` failed to bind).
    public static let notRunning = Self(base: .notRunning)

    /// A sentence naming the problem.
    public var description: String {
        switch base {
        case .notRunning: "the WebSocket server is not running"
        }
    }
}
