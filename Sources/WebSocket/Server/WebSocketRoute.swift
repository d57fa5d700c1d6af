/// A WebSocket endpoint: a path, its handshake policy, its connection configuration and the code that serves
/// each connection. A ``Handler/task(_:)`` handler reads ``WebSocketConnection/inbound`` in one task per
/// connection; an event-loop handler is called on the connection's event loop for every message, with no task
/// hop, for hot paths (echo, fan-out) and connections that must be cheap while idle.
///
/// ```swift
/// WebSocketRoute(path: "/chat", handshake: .init(subprotocols: ["chat.v1"])) { connection in
///     for try await message in connection.inbound {
///         try await connection.outbound.send(message)
///     }
/// }
/// ```
public struct WebSocketRoute: Sendable {
    /// How connections on this route are served.
    public enum Handler: Sendable {
        /// Runs once per connection in a child task of ``WebSocketServer/run()``;
        /// when it returns or throws, the connection is closed (1000, or 1011 on error).
        case task(@Sendable (WebSocketConnection) async throws -> Void)
        /// Called on the connection's event loop for every event.
        case eventLoop(any WebSocketEventLoopHandler)
        /// Makes one handler per connection on its event loop as it opens (before
        /// ``WebSocketEventLoopHandler/webSocketOpened(_:)``); the handler is released when the connection closes.
        case eventLoopPerConnection(@Sendable (WebSocketOutbound) -> any WebSocketEventLoopHandler)
    }

    /// The exact path served (the query string is ignored when matching).
    public var path: String
    /// Subprotocols, compression and origin policy of the opening handshake.
    public var handshake: WebSocketServerHandshake
    /// Limits, timers and compression of each connection; its
    /// ``WebSocketConfiguration/compression`` decides whether
    /// permessage-deflate offers are accepted.
    public var configuration: WebSocketConfiguration
    /// Buffering of each connection.
    public var options: WebSocketChannelOptions
    /// The connection handler.
    public var handler: Handler

    /// Creates a route with any handler kind.
    public init(
        path: String, handshake: WebSocketServerHandshake = .init(),
        configuration: WebSocketConfiguration = .init(), options: WebSocketChannelOptions = .init(),
        handler: Handler
    ) {
        self.path = path
        self.handshake = handshake
        self.configuration = configuration
        self.options = options
        self.handler = handler
    }

    /// Creates a route served by an `async` function per connection.
    public init(
        path: String, handshake: WebSocketServerHandshake = .init(),
        configuration: WebSocketConfiguration = .init(), options: WebSocketChannelOptions = .init(),
        handler: @escaping @Sendable (WebSocketConnection) async throws -> Void
    ) {
        self.init(path: path, handshake: handshake, configuration: configuration, options: options, handler: .task(handler))
    }
}
