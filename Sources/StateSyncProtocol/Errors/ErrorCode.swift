/// The `code` of an `error` message (docs/PROTOCOL.md, "Errors").
///
/// A struct rather than an enum so that later protocol versions can add codes;
/// a code this version does not know decodes as itself. What each code does to
/// the connection is in ``connectionPolicy``, from one table (``policies``).
///
/// ```swift
/// ErrorCode.helloRequired.connectionPolicy.closeCode   // 1008
/// ErrorCode.badJSON.connectionPolicy.closesConnection  // false
/// ```
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as written on the wire, e.g. `bad_json`.
    public let rawValue: String

    /// The code spelled `rawValue` (known or not).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// `bad_json`: the text is not a JSON object.
    public static let badJSON = ErrorCode(rawValue: "bad_json")
    /// `unknown_type`: `type` is missing or names no message of this protocol.
    public static let unknownType = ErrorCode(rawValue: "unknown_type")
    /// `bad_request`: a required field is missing or has the wrong type.
    public static let badRequest = ErrorCode(rawValue: "bad_request")
    /// `invalid_path`: a JSON Pointer does not parse.
    public static let invalidPath = ErrorCode(rawValue: "invalid_path")
    /// `too_many_subscriptions`: above the per-connection subscription limit.
    public static let tooManySubscriptions = ErrorCode(rawValue: "too_many_subscriptions")
    /// `unsupported_binary`: a binary WebSocket message (reserved in v1).
    public static let unsupportedBinary = ErrorCode(rawValue: "unsupported_binary")
    /// `hello_required`: the first message was not `hello`. Closes with 1008.
    public static let helloRequired = ErrorCode(rawValue: "hello_required")
    /// `unauthorized`: a missing or wrong token. Closes with 1008.
    public static let unauthorized = ErrorCode(rawValue: "unauthorized")
    /// `rate_limited`: above the per-connection message rate. Closes with
    /// 1008 when it persists.
    public static let rateLimited = ErrorCode(rawValue: "rate_limited")
    /// `forbidden`: the session's role may not read that path.
    public static let forbidden = ErrorCode(rawValue: "forbidden")
    /// `invalid_store`: a `store` field that is not a valid store name.
    public static let invalidStore = ErrorCode(rawValue: "invalid_store")
    /// `limit_reached`: a server bound on stores refused to open another.
    public static let limitReached = ErrorCode(rawValue: "limit_reached")
    /// `unavailable`: the store could not be opened now (its storage failed).
    public static let unavailable = ErrorCode(rawValue: "unavailable")
    /// `behind`: a `subscribe … since` names a revision this node has not
    /// reached in time (a cluster node behind the one the client left):
    /// resume on another node.
    public static let behind = ErrorCode(rawValue: "behind")
    /// `upgrade_required`: the client's `hello` declares an app schema
    /// version older than the server accepts. Closes with 4426.
    public static let upgradeRequired = ErrorCode(rawValue: "upgrade_required")
    /// `schema_too_new`: the client's `hello` declares an app schema version
    /// newer than this node serves (a rolling upgrade under way): connect to
    /// another node. Closes with 1013.
    public static let schemaTooNew = ErrorCode(rawValue: "schema_too_new")

    /// What this error does to the connection; codes missing from
    /// ``policies`` (ones this version does not know) leave it open.
    public var connectionPolicy: ConnectionPolicy {
        Self.policies[self] ?? .staysOpen
    }

    /// Every code of the protocol's error table with its effect on the
    /// connection: the single place that decides it.
    public static let policies: [ErrorCode: ConnectionPolicy] = [
        .badJSON: .staysOpen,
        .unknownType: .staysOpen,
        .badRequest: .staysOpen,
        .invalidPath: .staysOpen,
        .tooManySubscriptions: .staysOpen,
        .unsupportedBinary: .staysOpen,
        .forbidden: .staysOpen,
        .invalidStore: .staysOpen,
        .limitReached: .staysOpen,
        .unavailable: .staysOpen,
        .behind: .staysOpen,
        .helloRequired: .closes(code: CloseCode.policyViolation),
        .unauthorized: .closes(code: CloseCode.policyViolation),
        .rateLimited: .closesWhenPersisting(code: CloseCode.policyViolation),
        .upgradeRequired: .closes(code: CloseCode.upgradeRequired),
        .schemaTooNew: .closes(code: CloseCode.tryAgainLater),
    ]

    /// The raw value.
    public var description: String { rawValue }
}
