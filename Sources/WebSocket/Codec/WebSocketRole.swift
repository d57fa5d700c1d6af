/// Which end of a WebSocket connection this endpoint is.
///
/// The role decides the masking rules of RFC 6455 §5.1: a client masks every
/// frame it sends and rejects masked frames from the server; a server sends
/// unmasked frames and rejects unmasked frames from a client (close code 1002).
public enum WebSocketRole: Hashable, Sendable {
    /// The endpoint that accepted the connection.
    case server
    /// The endpoint that opened the connection.
    case client
}
