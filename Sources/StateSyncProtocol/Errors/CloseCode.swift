/// The WebSocket close codes (RFC 6455 §7.4.1) that docs/PROTOCOL.md assigns,
/// as plain `UInt16`s: this module does not depend on the WebSocket module.
public enum CloseCode {
    /// 1001: the server is shutting down (sent after flushing).
    public static let goingAway: UInt16 = 1001
    /// 1008: `hello_required`, `unauthorized`, persistent `rate_limited`.
    public static let policyViolation: UInt16 = 1008
    /// 1009: a message larger than the configured maximum.
    public static let messageTooBig: UInt16 = 1009
    /// 1013 (try again later): `schema_too_new`, this node serves an older
    /// app schema than the client speaks; another node may serve it.
    public static let tryAgainLater: UInt16 = 1013
    /// 4426 (private use, after HTTP's 426): `upgrade_required`, the client
    /// speaks an app schema older than the server accepts.
    public static let upgradeRequired: UInt16 = 4426
}
