/// Which end of a WebSocket connection this endpoint is; it decides masking (RFC 6455 §5.1): a client masks
/// what it sends, a server does not, and each rejects frames masked the other way (1002).
public enum WebSocketRole: Hashable, Sendable {
    /// The endpoint that accepted the connection.
    case server
    /// The endpoint that opened the connection.
    case client
}
