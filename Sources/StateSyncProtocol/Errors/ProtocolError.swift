public import StateSyncCore

/// A protocol error: what the server reports in an `error` message.
///
/// ``MessageDecoder`` throws these for malformed input; the server builds the
/// others (``tooManySubscriptions(limit:id:)``, ``helloRequired(received:id:)``
/// and so on) so that every message is worded in one place. Each has a
/// ``code``, a ``message`` naming the wrong value, and the ``id`` of the
/// message it concerns when that id could be read.
///
/// ```swift
/// do {
///     _ = try MessageDecoder().decodeClientMessage(Array(#"{"type":"subscribe","id":"s1","path":"todos"}"#.utf8))
/// } catch {
///     error.code      // .invalidPath
///     error.id        // "s1"
///     error.message   // invalid JSON pointer "todos": it must be empty or start with "/"
///     let reply = ServerMessage.error(error)
/// }
/// ```
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
        case badJSON(JSONParseError)
        case notAnObject(found: String)
        case missingType
        case typeNotString(found: String)
        case unknownType(String)
        case missingField(String, expected: String)
        case wrongType(field: String, expected: String, found: String)
        case invalidValue(field: String, reason: String)
        case invalidPath(JSONPointerError)
        case tooManySubscriptions(limit: Int)
        case unsupportedBinary
        case helloRequired(received: String)
        case invalidHello(reason: String)
        case unauthorized(tokenGiven: Bool)
        case tokenRefused(String)
        case storeNotGranted(store: String)
        case behind(revision: UInt64, seen: UInt64)
        case rateLimited(messagesPerSecond: Int)
        case byteRateLimited(bytesPerSecond: Int)
        case forbidden(path: String, role: Role)
        case invalidStore(String)
        case storeNotCreatable(store: String, role: Role)
        case storeLimit(String)
        case storeUnavailable(store: String, reason: String)
        case upgradeRequired(declared: Int, accepted: ClosedRange<Int>)
        case schemaTooNew(declared: Int, served: Int)
        case storeSchemaNewer(store: String, stored: Int, served: Int)
    }

    private let base: Base

    /// The id of the message this error concerns, when it had one that could
    /// be read (a string `id` field); sent as the error's `id`.
    public let id: String?

    private init(_ base: Base, id: String?) {
        self.base = base
        self.id = id
    }

    package static func badJSON(_ error: JSONParseError) -> ProtocolError {
        ProtocolError(.badJSON(error), id: nil)
    }

    package static func notAnObject(_ value: JSONValue) -> ProtocolError {
        ProtocolError(.notAnObject(found: value.kindWithArticle), id: nil)
    }

    static func missingType(id: String?) -> ProtocolError {
        ProtocolError(.missingType, id: id)
    }

    static func typeNotString(_ value: JSONValue, id: String?) -> ProtocolError {
        ProtocolError(.typeNotString(found: Self.show(value)), id: id)
    }

    static func unknownType(_ type: String, id: String?) -> ProtocolError {
        ProtocolError(.unknownType(type), id: id)
    }

    package static func missingField(_ field: String, expected: String, id: String?) -> ProtocolError {
        ProtocolError(.missingField(field, expected: expected), id: id)
    }

    package static func wrongType(_ field: String, expected: String, found value: JSONValue, id: String?) -> ProtocolError {
        ProtocolError(.wrongType(field: field, expected: expected, found: Self.show(value)), id: id)
    }

    package static func invalidValue(_ field: String, reason: String, id: String?) -> ProtocolError {
        ProtocolError(.invalidValue(field: field, reason: reason), id: id)
    }

    package static func invalidPath(_ error: JSONPointerError, id: String?) -> ProtocolError {
        ProtocolError(.invalidPath(error), id: id)
    }

    /// `too_many_subscriptions`: subscription `id` would exceed `limit` on
    /// one connection.
    public static func tooManySubscriptions(limit: Int, id: String?) -> ProtocolError {
        ProtocolError(.tooManySubscriptions(limit: limit), id: id)
    }

    /// `unsupported_binary`: a binary WebSocket message arrived.
    public static let unsupportedBinary = ProtocolError(.unsupportedBinary, id: nil)

    /// `hello_required`: the first message had type `received` instead of
    /// `hello` (closes the connection with 1008).
    public static func helloRequired(received: String, id: String?) -> ProtocolError {
        ProtocolError(.helloRequired(received: received), id: id)
    }

    /// `hello_required`: the first message is a `hello` with a field of the
    /// wrong type or value (`error` names it; closes the connection with 1008).
    public static func invalidHello(_ error: ProtocolError) -> ProtocolError {
        ProtocolError(.invalidHello(reason: error.message), id: nil)
    }

    /// `unauthorized`: `hello` carried no token (`tokenGiven == false`) or a
    /// wrong one (closes the connection with 1008). The token itself is never
    /// echoed.
    public static func unauthorized(tokenGiven: Bool) -> ProtocolError {
        ProtocolError(.unauthorized(tokenGiven: tokenGiven), id: nil)
    }

    /// `unauthorized`: the token was refused for `reason` (a JWT that expired,
    /// is not yet valid, is signed with another key, or grants nothing),
    /// worded for people; the token itself is never echoed.
    public static func tokenRefused(_ reason: String, id: String? = nil) -> ProtocolError {
        ProtocolError(.tokenRefused(reason), id: id)
    }

    /// `forbidden`: the session's token grants no role in the store `store`.
    public static func storeNotGranted(_ store: StoreName, id: String?) -> ProtocolError {
        ProtocolError(.storeNotGranted(store: store.rawValue), id: id)
    }

    /// `behind`: this node is at `revision`, behind the revision `seen` a
    /// `subscribe … since` resumes from, and did not catch up in time.
    public static func behind(revision: UInt64, seen: UInt64, id: String?) -> ProtocolError {
        ProtocolError(.behind(revision: revision, seen: seen), id: id)
    }

    /// `rate_limited`: the connection sends more than `messagesPerSecond`.
    public static func rateLimited(messagesPerSecond: Int, id: String?) -> ProtocolError {
        ProtocolError(.rateLimited(messagesPerSecond: messagesPerSecond), id: id)
    }

    /// `rate_limited`: the connection sends more than `bytesPerSecond` bytes a second.
    public static func byteRateLimited(bytesPerSecond: Int, id: String?) -> ProtocolError {
        ProtocolError(.byteRateLimited(bytesPerSecond: bytesPerSecond), id: id)
    }

    /// `forbidden`: a session with `role` may not read `path`.
    public static func forbidden(path: JSONPointer, role: Role, id: String?) -> ProtocolError {
        ProtocolError(.forbidden(path: path.description, role: role), id: id)
    }

    /// `invalid_store`: a `store` field that does not follow ``StoreName/rule``.
    public static func invalidStore(_ name: String, id: String?) -> ProtocolError {
        ProtocolError(.invalidStore(name), id: id)
    }

    /// `forbidden`: a session with `role` may not create the store `store`,
    /// which does not exist yet.
    public static func storeNotCreatable(_ store: StoreName, role: Role, id: String?) -> ProtocolError {
        ProtocolError(.storeNotCreatable(store: store.rawValue, role: role), id: id)
    }

    /// `limit_reached`: a bound on stores (`description` says which) refused
    /// opening another one.
    public static func storeLimit(_ description: String, id: String?) -> ProtocolError {
        ProtocolError(.storeLimit(description), id: id)
    }

    /// `unavailable`: the store `store` could not be opened (`reason`: its
    /// storage failed); the session and its other stores are unaffected.
    public static func storeUnavailable(_ store: StoreName, reason: String, id: String?) -> ProtocolError {
        ProtocolError(.storeUnavailable(store: store.rawValue, reason: reason), id: id)
    }

    /// `upgrade_required`: `hello` declared app schema version `declared`,
    /// below the `accepted` range (closes the connection with 4426).
    public static func upgradeRequired(declared: Int, accepted: ClosedRange<Int>) -> ProtocolError {
        ProtocolError(.upgradeRequired(declared: declared, accepted: accepted), id: nil)
    }

    /// `schema_too_new`: `hello` declared app schema version `declared`,
    /// newer than the `served` one (closes the connection with 1013).
    public static func schemaTooNew(declared: Int, served: Int) -> ProtocolError {
        ProtocolError(.schemaTooNew(declared: declared, served: served), id: nil)
    }

    /// `schema_too_new`: the store `store` holds data of app schema version
    /// `stored`, newer than the `served` one this node knows (closes the
    /// connection with 1013: another node serves it).
    public static func storeSchemaNewer(_ store: StoreName, stored: Int, served: Int, id: String? = nil) -> ProtocolError {
        ProtocolError(.storeSchemaNewer(store: store.rawValue, stored: stored, served: served), id: id)
    }

    /// The same error about the message `id` (when this one names none).
    public func relating(to id: String?) -> ProtocolError {
        ProtocolError(base, id: self.id ?? id)
    }

    /// The error code sent on the wire.
    public var code: ErrorCode {
        switch base {
        case .badJSON, .notAnObject: .badJSON
        case .missingType, .typeNotString, .unknownType: .unknownType
        case .missingField, .wrongType, .invalidValue: .badRequest
        case .invalidPath: .invalidPath
        case .tooManySubscriptions: .tooManySubscriptions
        case .unsupportedBinary: .unsupportedBinary
        case .helloRequired, .invalidHello: .helloRequired
        case .unauthorized, .tokenRefused: .unauthorized
        case .rateLimited, .byteRateLimited: .rateLimited
        case .forbidden, .storeNotCreatable, .storeNotGranted: .forbidden
        case .invalidStore: .invalidStore
        case .storeLimit: .limitReached
        case .storeUnavailable: .unavailable
        case .behind: .behind
        case .upgradeRequired: .upgradeRequired
        case .schemaTooNew, .storeSchemaNewer: .schemaTooNew
        }
    }

    /// For `bad_json` from the JSON parser: the byte offset of the problem
    /// in the message; otherwise `nil`.
    public var byteOffset: Int? {
        if case .badJSON(let error) = base { return error.byteOffset }
        return nil
    }

    /// A message for people naming the wrong value (sent on the wire).
    public var message: String {
        switch base {
        case .badJSON(let error):
            "not valid JSON: \(error)"
        case .notAnObject(let found):
            "a message must be a JSON object, not \(found)"
        case .missingType:
            "missing field \"type\" (a string naming the message type)"
        case .typeNotString(let found):
            "field \"type\" must be a string, found \(found)"
        case .unknownType(let type):
            "unknown message type \"\(Self.clip(type))\""
        case let .missingField(field, expected):
            "missing field \"\(field)\" (\(expected))"
        case let .wrongType(field, expected, found):
            "field \"\(field)\" must be \(expected), found \(found)"
        case let .invalidValue(field, reason):
            "field \"\(field)\": \(reason)"
        case .invalidPath(let error):
            error.description
        case .tooManySubscriptions(let limit):
            "too many subscriptions: at most \(limit) may be open on one connection"
        case .unsupportedBinary:
            "binary messages are not supported in statesync.v1; send JSON text messages"
        case .helloRequired(let received):
            "the first message must be \"hello\", not \"\(Self.clip(received))\""
        case .invalidHello(let reason):
            "this \"hello\" is invalid: \(reason)"
        case .unauthorized(let tokenGiven):
            tokenGiven ? "the token is not valid" : "this server requires a token in \"hello\""
        case .tokenRefused(let reason):
            "the token was refused: \(reason)"
        case let .behind(revision, seen):
            "this node is at revision \(revision), behind revision \(seen) the client has seen: resume on another node"
        case .storeNotGranted(let store):
            "this session's token grants no access to the store \"\(store)\""
        case .rateLimited(let rate):
            "too many messages: at most \(rate) per second on one connection"
        case .byteRateLimited(let rate):
            "too many bytes: at most \(rate) per second on one connection"
        case let .forbidden(path, role):
            "role \(role.rawValue) may not read \"\(path)\""
        case .invalidStore(let name):
            "invalid store \"\(Self.clip(name))\": \(StoreName.rule)"
        case let .storeNotCreatable(store, role):
            "store \"\(store)\" does not exist and role \(role.rawValue) may not create it"
        case .storeLimit(let description):
            description
        case let .storeUnavailable(store, reason):
            "store \"\(store)\" is unavailable: \(Self.clip(reason))"
        case let .upgradeRequired(declared, accepted):
            "this client speaks app schema version \(declared); this server accepts \(Self.range(accepted)): upgrade the client"
        case let .schemaTooNew(declared, served):
            "this client speaks app schema version \(declared); this node serves version \(served): connect to a node that serves it"
        case let .storeSchemaNewer(store, stored, served):
            "the store \"\(store)\" is at app schema version \(stored); this node serves version \(served): connect to a node that serves it"
        }
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// `2`, or `2 to 3`.
    private static func range(_ versions: ClosedRange<Int>) -> String {
        versions.count == 1 ? "version \(versions.lowerBound)" : "versions \(versions.lowerBound) to \(versions.upperBound)"
    }

    /// A value's kind and, for a scalar, its (clipped) text, e.g.
    /// `a number (-1)`; containers show only their kind, so that a huge one
    /// is not serialized for an error message.
    static func show(_ value: JSONValue) -> String {
        switch value {
        case .null, .array, .object: value.kindWithArticle
        default: "\(value.kindWithArticle) (\(clip(value.description)))"
        }
    }

    /// `text`, cut to 60 characters so that hostile input cannot make
    /// messages huge.
    static func clip(_ text: String) -> String {
        text.count <= 60 ? text : text.prefix(60) + "…"
    }
}
