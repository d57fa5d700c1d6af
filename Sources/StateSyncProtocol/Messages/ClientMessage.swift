public import StateSyncCore

/// A message a client sends to the server (docs/PROTOCOL.md): read with
/// ``MessageDecoder/decodeClientMessage(_:)``, written with ``MessageEncoder``.
///
/// ```swift
/// let message = try MessageDecoder().decodeClientMessage(Array(#"{"type":"get","id":"g1","path":"/counters"}"#.utf8))
/// if case .get(let id, let path) = message { print(id, path) }   // g1 /counters
/// ```
public enum ClientMessage: Sendable, Hashable {
    /// The first message of every session; all fields optional: `clientId`
    /// scopes action ids across reconnects, `token` authenticates, `name` is
    /// shown to others, `schemaVersion` is the app schema the client speaks.
    case hello(clientID: String?, token: String?, name: String?, schemaVersion: Int? = nil)
    /// Focus on the value at `path`; with `since`, resume after that revision.
    case subscribe(id: String, path: JSONPointer, since: UInt64?)
    /// End the subscription `id`.
    case unsubscribe(id: String)
    /// Read the value at `path` once.
    case get(id: String, path: JSONPointer)
    /// Apply `action` (a JSON object with a string `type`) and answer `ack` or
    /// `reject` for `id`. `schemaVersion` is the app schema version the action
    /// was written for; the server upcasts older ones.
    case dispatch(id: String, action: JSONObject, schemaVersion: Int? = nil)
    /// Replace the session's token in place (a refreshed JWT before the old
    /// one expires): the server answers `authorized` for `id`, and the
    /// session keeps its subscriptions in every store the new token grants.
    case auth(id: String, token: String)

    /// The `type` field: `hello`, `subscribe`, `unsubscribe`, `get`, `dispatch` or `auth`.
    public var type: String {
        switch self {
        case .hello: "hello"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .get: "get"
        case .dispatch: "dispatch"
        case .auth: "auth"
        }
    }

    /// The message's `id`, or `nil` for `hello` (which has none).
    public var id: String? {
        switch self {
        case .hello: nil
        case .subscribe(let id, _, _), .unsubscribe(let id), .get(let id, _), .dispatch(let id, _, _), .auth(let id, _): id
        }
    }
}
