/// The version of docs/PROTOCOL.md that this module speaks, as it is
/// negotiated: clients offer ``subprotocol`` in the WebSocket handshake and
/// servers refuse a connection without it.
///
/// ```swift
/// WebSocketClient.connect(url: url, subprotocols: [ProtocolVersion.subprotocol], …)
/// ```
public enum ProtocolVersion {
    /// The WebSocket subprotocol, `statesync.v1`.
    public static let subprotocol = "statesync.v1"
}
