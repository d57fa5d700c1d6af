/// The version of docs/PROTOCOL.md this module speaks: clients offer
/// ``subprotocol`` in the WebSocket handshake and servers refuse a connection
/// without it.
public enum ProtocolVersion {
    /// The WebSocket subprotocol, `statesync.v1`.
    public static let subprotocol = "statesync.v1"

    /// The app schema versions a message (`hello`, `dispatch`), header or
    /// outbox entry may name: `1...1_000_000`.
    public static let schemaVersions = 1...1_000_000

    /// How an app schema version is described in errors.
    public static let schemaVersionKind = "an app schema version (an integer from 1 to 1000000)"
}
