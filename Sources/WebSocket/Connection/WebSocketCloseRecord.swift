import NIOCore

/// What a connection's close handshake has seen: the statuses exchanged and
/// the deadline for the rest of it. Kept out of line by
/// ``WebSocketConnectionStateMachine``: an open connection has none.
struct WebSocketCloseRecord {
    /// The peer's close status, once its close frame arrived.
    var received: WebSocketCloseStatus?
    /// The status this endpoint sent (or failed the connection with).
    var sent: WebSocketCloseStatus?
    /// The status this endpoint failed the connection with.
    var failure: WebSocketCloseStatus?
    /// When the close handshake gives up waiting for the peer.
    var deadline: NIODeadline?
}
