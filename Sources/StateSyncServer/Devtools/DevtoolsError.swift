/// Why a devtools request (time travel, journal range) could not be answered.
/// Each maps to an HTTP status and says what was asked and what is possible.
public struct DevtoolsError: Error, CustomStringConvertible, Sendable {
    private enum Base: Sendable {
        case revisionAhead(UInt64, latest: UInt64)
        case notRebuildable(UInt64, reason: String)
        case badQuery(String)
        case failed(String)
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

    /// Reading or replaying the journal failed.
    static func failed(_ message: String) -> DevtoolsError {
        DevtoolsError(base: .failed(message))
    }

    /// The HTTP status that reports it: 404 for a revision that does not
    /// exist or is gone, 400 for a bad query, 500 for a failed read or replay.
    var status: Int {
        switch base {
        case .revisionAhead, .notRebuildable: 404
        case .badQuery: 400
        case .failed: 500
        }
    }

    /// The `error.code` of the JSON body: `not_found`, `bad_request` or `internal_error`.
    var code: String {
        switch base {
        case .revisionAhead, .notRebuildable: "not_found"
        case .badQuery: "bad_request"
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
        case .badQuery(let message):
            message
        case .failed(let message):
            message
        }
    }
}
