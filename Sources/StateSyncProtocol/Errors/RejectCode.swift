public import StateSyncCore

/// The `code` of a `reject` message: why an action was refused (the state did
/// not change). A struct so that apps can add codes
/// (`RejectCode(rawValue: "sold_out")`).
///
/// ```swift
/// let code = RejectCode(Rejection.notFound("no todo with id nope"))   // .notFound
/// ```
public struct RejectCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as written on the wire, e.g. `invalid_action`.
    public let rawValue: String

    /// The code spelled `rawValue` (protocol-defined or app-defined).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The code of a reducer's or middleware's ``Rejection``.
    public init(_ rejection: Rejection) {
        self.init(rawValue: rejection.code)
    }

    /// `invalid_action`: the action does not decode as any action of the
    /// app, or fails validation.
    public static let invalidAction = RejectCode(rawValue: "invalid_action")
    /// `not_found`: the action names something the state does not hold
    /// (app-defined by convention; the board uses it).
    public static let notFound = RejectCode(rawValue: "not_found")
    /// `forbidden`: the session's role may not dispatch, or not this action
    /// type (`statesync serve --restrict-action`).
    public static let forbidden = RejectCode(rawValue: "forbidden")
    /// `rate_limited`: the client dispatches faster than allowed.
    public static let rateLimited = RejectCode(rawValue: "rate_limited")
    /// `too_many_clients`: the server remembers outcomes for as many clientIds
    /// as it may, all active within its window, so this new one's dispatch
    /// could not be exactly-once; retry later, or dispatch without a clientId.
    public static let tooManyClients = RejectCode(rawValue: "too_many_clients")
    /// `unavailable`: the server cannot store actions now (disk full or
    /// failing, PostgreSQL unreachable); not applied. An earlier unanswered
    /// send may have been, so the client sends it again later until another
    /// answer comes.
    public static let unavailable = RejectCode(rawValue: "unavailable")
    /// `schema_too_new`: not applied; the node serves an older app schema
    /// version than the action's, or no longer serves the store (a newer node
    /// wrote it). Between nodes, the forwarding node writes it.
    public static let schemaTooNew = RejectCode(rawValue: ErrorCode.schemaTooNew.rawValue)
    /// `state_too_large`: applying the action would grow the state above the
    /// server's limit (`serve --max-state-bytes`); nothing changed.
    public static let stateTooLarge = RejectCode(rawValue: "state_too_large")

    /// The raw value.
    public var description: String { rawValue }
}
