/// Callbacks that serve a WebSocket route on the connection's event loop, with no task per connection or
/// message: the hot path. Every method runs on that loop and must not block; writes made during a callback are
/// flushed when the read burst ends, and a handler whose backlog is full calls ``WebSocketOutbound/holdReading()``.
///
/// ```swift
/// struct Echo: WebSocketEventLoopHandler {
///     func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage) {
///         outbound.write(message)
///     }
/// }
/// ```
public protocol WebSocketEventLoopHandler: Sendable {
    /// The connection is open (after the handshake). Default: nothing.
    func webSocketOpened(_ outbound: WebSocketOutbound)
    /// A complete message arrived.
    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketMessage)
    /// A complete message arrived, with its arrival time (``WebSocketReceivedMessage/receivedAt``), for handlers
    /// that measure rates. Default: calls ``webSocket(_:received:)-(_,WebSocketMessage)``.
    func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketReceivedMessage)
    /// The connection closed; `status` is the peer's close status, or
    /// `abnormalClosure` (1006) when TCP dropped without one. Default: nothing.
    func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus)
}

extension WebSocketEventLoopHandler {
    /// Does nothing.
    public func webSocketOpened(_ outbound: WebSocketOutbound) {}
    /// Passes the message on without its arrival time.
    public func webSocket(_ outbound: WebSocketOutbound, received message: WebSocketReceivedMessage) {
        webSocket(outbound, received: message.message)
    }
    /// Does nothing.
    public func webSocketClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {}
}
