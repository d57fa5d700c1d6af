/// Why a devtools request (time travel, journal range) could not be answered.
/// Each maps to an HTTP status and says what was asked and what is possible.
public struct DevtoolsError: Error, CustomStringConvertible, Sendable {
    private enum Base: Sendable {
        case revisionAhead(UInt64, latest: UInt64)
        case notRebuildable(UInt64, reason: String)
        case badQuery(String)
        case failed(String)
        case invalidStore(String)
        case noStore(String)
        case storeUnavailable(String)
        case unauthorized(String)
        case forbidden(String)
    }

    private let base: Base

    /// `revision` is past the journal's last revision `latest`.
    static func revisionAhead(_ revision: UInt64, latest: UInt64) -> DevtoolsError {
        DevtoolsError(base: .revisionAhead(revision, latest: latest))
    }

    /// The journal no longer holds what rebuilding `revision` needs.
    static func notRebuildable(_ revision: UInt64, reason: String) -> DevtoolsError {
        DevtoolsError(base: .notRebuildable(revision, reason: reason))
    }

    /// A query parameter is missing or malformed.
    static func badQuery(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .badQuery(message))
    }

    /// The `store` parameter is not a store name.
    static func invalidStore(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .invalidStore(message))
    }

    /// The server holds no store `name`.
    static func noStore(_ name: String) -> DevtoolsError {
        DevtoolsError(base: .noStore(name))
    }

    /// The store could not be opened for the request (`message` says why).
    static func storeUnavailable(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .storeUnavailable(message))
    }

    /// No known token with authentication on.
    static func unauthorized(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .unauthorized(message))
    }

    /// The caller may not read what it asked for.
    static func forbidden(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .forbidden(message))
    }

    /// Reading or replaying the journal failed.
    static func failed(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .failed(message))
    }

    /// The HTTP status: 404 missing revision or store, 400 bad query or name,
    /// 401/403 for the caller, 503 store unavailable now, 500 failed read or replay.
    var status: Int {
        switch base {
        case .revisionAhead, .notRebuildable, .noStore: 404
        case .badQuery, .invalidStore: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .storeUnavailable: 503
        case .failed: 500
        }
    }

    /// The `error.code` of the JSON body: `not_found`, `bad_request`,
    /// `invalid_store`, `unauthorized`, `forbidden`, `unavailable` or `internal_error`.
    var code: String {
        switch base {
        case .revisionAhead, .notRebuildable, .noStore: "not_found"
        case .badQuery: "bad_request"
        case .invalidStore: "invalid_store"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .storeUnavailable: "unavailable"
        case .failed: "internal_error"
        }
    }

    /// A one-line explanation.
    public var description: String {
        switch base {
        case let .revisionAhead(revision, latest):
            "revision \(revision) does not exist yet: the latest is \(latest)"
        case let .notRebuildable(revision, reason):
            "the state at revision \(revision) cannot be rebuilt: \(reason)"
        case .noStore(let name):
            "no store \"\(name)\""
        case .badQuery(let message), .failed(let message), .invalidStore(let message), .storeUnavailable(let message),
             .unauthorized(let message), .forbidden(let message):
            message
        }
    }
}
