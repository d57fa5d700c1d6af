public import StateSyncCore

/// A message the server sends to a client (docs/PROTOCOL.md): written with
/// ``MessageEncoder``, read with ``MessageDecoder/decodeServerMessage(_:)``.
/// ``PatchFrames`` sends one change to many subscriptions.
///
/// ```swift
/// let ack = ServerMessage.ack(id: "a17", rev: 1045)
/// MessageEncoder().encode(ack)   // {"type":"ack","id":"a17","rev":1045}
/// ```
public enum ServerMessage: Sendable, Hashable {
    /// The answer to `hello`: the session's id, the history's epoch, the
    /// current revision, the role granted in `main` (`nil` when the token
    /// grants none there: a JWT for other stores) and the server's name and version.
    case welcome(session: String, epoch: String, rev: UInt64, role: Role?, server: String)
    /// The value at subscription `id`'s path at `rev` (`null` when nothing is there).
    case snapshot(id: String, rev: UInt64, value: JSONValue)
    /// How subscription `id`'s value changed from revision `base` to `rev`;
    /// `ops` paths are relative to the subscription path.
    case patch(id: String, base: UInt64, rev: UInt64, ops: JSONPatch)
    /// Subscription `id` has ended.
    case unsubscribed(id: String)
    /// The answer to `get` `id`: the value at `rev` (`null` when nothing is there).
    case value(id: String, rev: UInt64, value: JSONValue)
    /// Action `id` was applied at `rev` and durably stored.
    case ack(id: String, rev: UInt64)
    /// Action `id` was refused; the state did not change.
    case reject(id: String, code: RejectCode, message: String)
    /// A protocol error; `id` is the related message's id when there is one.
    case error(id: String?, code: ErrorCode, message: String)
    /// The answer to `auth` `id`: the new token is in force, with this role
    /// in `main` (`nil`: none) until `expires` (seconds since 1970; `nil`: no expiry).
    case authorized(id: String, role: Role?, expires: UInt64?)

    /// The `reject` for action `id` refused with `rejection`.
    public static func reject(id: String, rejection: Rejection) -> ServerMessage {
        .reject(id: id, code: RejectCode(rejection), message: rejection.message)
    }

    /// The `error` message reporting `error` (with its related id).
    public static func error(_ error: ProtocolError) -> ServerMessage {
        .error(id: error.id, code: error.code, message: error.message)
    }

    /// The `type` field, e.g. `patch`.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .snapshot: "snapshot"
        case .patch: "patch"
        case .unsubscribed: "unsubscribed"
        case .value: "value"
        case .ack: "ack"
        case .reject: "reject"
        case .error: "error"
        case .authorized: "authorized"
        }
    }
}
