/// Where a connection is in its life (RFC 6455 §7).
public enum WebSocketConnectionState: Hashable, Sendable {
    /// Messages flow both ways.
    case open
    /// This endpoint sent a close frame and waits for the peer's; it still
    /// receives messages but sends nothing more.
    case closing
    /// The close handshake is done (or the connection failed); only closing
    /// TCP remains. Nothing is sent or received any more.
    case closed
}
