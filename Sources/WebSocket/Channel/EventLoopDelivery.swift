import NIOCore

/// Delivers a connection's messages to a ``WebSocketEventLoopHandler`` on
/// its event loop, with no task and no queue: the server's hot path. The
/// handler pauses reading itself with ``WebSocketOutbound/holdReading()``.
struct EventLoopDelivery: WebSocketDelivery {
    /// Released when the connection closes (it may hold the outbound writer).
    private var handler: (any WebSocketEventLoopHandler)?

    /// Delivers to `handler`; `nil` until the connection's handler is made.
    init(handler: (any WebSocketEventLoopHandler)? = nil) {
        self.handler = handler
    }

    func connectionOpened(_ outbound: WebSocketOutbound) {
        handler?.webSocketOpened(outbound)
    }

    func deliver(_ message: WebSocketReceivedMessage, outbound: WebSocketOutbound) -> WebSocketDeliveryOutcome {
        handler?.webSocket(outbound, received: message)
        return .accepted
    }

    mutating func connectionClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        handler?.webSocketClosed(outbound, status: status)
        handler = nil
    }
}

extension WebSocketChannelHandler where Delivery == EventLoopDelivery {
    /// Installs a connection's handler after `after` (the HTTP stage that is
    /// about to leave), delivering to the event-loop handler that
    /// `makeHandler` makes from the connection's outbound writer, and
    /// returns that writer.
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
