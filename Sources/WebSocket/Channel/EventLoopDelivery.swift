import NIOCore

/// Delivers a connection's messages to a ``WebSocketEventLoopHandler`` on
/// its event loop, with no task and no queue: the server's hot path. The
/// handler pauses reading itself with ``WebSocketOutbound/holdReading()``.
struct EventLoopDelivery: WebSocketDelivery {
    /// Replaced by ``NoReceiver`` when the connection closes (it may hold the
    /// outbound writer). Not optional: unwrapping an optional existential
    /// copies it, and so retains and releases the receiver, for every message.
    private var handler: any WebSocketEventLoopHandler

    /// Delivers to `handler`; to no one until the connection's handler is made.
    init(handler: any WebSocketEventLoopHandler = NoReceiver()) {
        self.handler = handler
    }

    func connectionOpened(_ outbound: WebSocketOutbound) {
        handler.webSocketOpened(outbound)
    }

    mutating func deliver(_ message: WebSocketReceivedMessage, outbound: WebSocketOutbound) -> WebSocketDeliveryOutcome {
        handler.webSocket(outbound, received: message)
        return .accepted
    }

    mutating func connectionClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        handler.webSocketClosed(outbound, status: status)
        handler = NoReceiver()
    }

    /// The receiver before the connection's handler is made and after it closed: drops every message.
    struct NoReceiver: WebSocketEventLoopHandler {
        func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {}
    }
}

extension WebSocketChannelHandler where Delivery == EventLoopDelivery {
    /// Installs a connection's handler after `after` (the leaving HTTP stage), delivering to the handler
    /// `makeHandler` makes from the outbound writer, and returns that writer.
    static func install(
        on channel: any Channel, after: any ChannelHandler, role: WebSocketRole,
        configuration: WebSocketConfiguration, options: WebSocketChannelOptions,
        subprotocol: String?, compression: PerMessageDeflateParameters?, registry: ConnectionRegistry? = nil,
        handler makeHandler: (WebSocketOutbound) -> any WebSocketEventLoopHandler
    ) throws -> WebSocketOutbound {
        let (handler, outbound) = make(
            on: channel, role: role, configuration: configuration, options: options, subprotocol: subprotocol,
            compression: compression, registry: registry, delivery: EventLoopDelivery())
        handler.delivery = EventLoopDelivery(handler: makeHandler(outbound))
        try handler.add(to: channel, after: after, options: options)
        return outbound
    }
}
