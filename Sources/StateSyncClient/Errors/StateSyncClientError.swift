public import StateSyncProtocol

/// Why a ``StateSyncClient`` call failed (other than a ``DispatchRejection``), reading as a plain sentence:
/// `cannot connect to ws://127.0.0.1:8080/sync: connection refused`.
public struct StateSyncClientError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
        case cannotConnect(url: String, reason: String)
        case refused(url: String, code: ErrorCode, message: String)
        case closed
        case invalidPath(String, reason: String)
        case server(code: ErrorCode, message: String, path: String?)
        case decodingFailed(path: String, type: String, reason: String)
        case encodingFailed(type: String, reason: String)
        case outboxFailed(path: String, reason: String)
        case tooManyPendingDispatches(limit: Int)
        case invalidStore(String)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// The WebSocket to `url` could not be opened (`reason`: connection refused,
    /// handshake rejected, bad URL, timeout).
    public static func cannotConnect(url: String, reason: String) -> Self {
        Self(.cannotConnect(url: url, reason: reason))
    }

    /// The server ended the session for good: `unauthorized` (bad or missing
    /// token) or `hello_required`. The client does not retry.
    public static func refused(url: String, code: ErrorCode, message: String) -> Self {
        Self(.refused(url: url, code: code, message: message))
    }

    /// The client was closed before the server answered.
    public static let closed = Self(.closed)

    /// `path` is not a JSON Pointer (RFC 6901).
    public static func invalidPath(_ path: String, reason: String) -> Self {
        Self(.invalidPath(path, reason: reason))
    }

    /// The server answered a request with `error` `code` (e.g. `forbidden`,
    /// `invalid_path`, `too_many_subscriptions`); `path` is the subscription's
    /// or read's path when there is one.
    public static func server(code: ErrorCode, message: String, path: String?) -> Self {
        Self(.server(code: code, message: message, path: path))
    }

    /// The JSON at `path` does not decode as `type`.
    public static func decodingFailed(path: String, type: String, reason: String) -> Self {
        Self(.decodingFailed(path: path, type: type, reason: reason))
    }

    /// An action of `type` does not encode as a JSON object.
    public static func encodingFailed(type: String, reason: String) -> Self {
        Self(.encodingFailed(type: type, reason: reason))
    }

    /// The outbox file at `path` (``StateSyncClientConfiguration/outbox``)
    /// could not be read or written: `reason` says why.
    public static func outboxFailed(path: String, reason: String) -> Self {
        Self(.outboxFailed(path: path, reason: reason))
    }

    /// `limit` dispatches are already waiting for the server's answer
    /// (``StateSyncClientConfiguration/maxPendingDispatches``): this one was not sent.
    public static func tooManyPendingDispatches(limit: Int) -> Self {
        Self(.tooManyPendingDispatches(limit: limit))
    }

    /// `name` is not a store name (``StoreName/rule``): no store was used.
    public static func invalidStore(_ name: String) -> Self {
        Self(.invalidStore(name))
    }

    /// The protocol error code, for ``refused(url:code:message:)`` and ``server(code:message:path:)``.
    public var code: ErrorCode? {
        switch base {
        case .refused(_, let code, _), .server(let code, _, _): code
        default: nil
        }
    }

    /// Whether the error ends the client for good (no point in retrying).
    var isFatal: Bool {
        if case .refused = base { return true }
        return false
    }

    /// A sentence naming what failed.
    public var description: String {
        switch base {
        case .cannotConnect(let url, let reason):
            "cannot connect to \(url): \(reason)"
        case .refused(let url, let code, let message):
            "the server at \(url) refused the session (\(code)): \(message)"
        case .closed:
            "the client was closed before the server answered"
        case .invalidPath(let path, let reason):
            "invalid path \"\(path)\": \(reason)"
        case .server(let code, let message, let path):
            path.map { "\($0): \(code): \(message)" } ?? "\(code): \(message)"
        case .decodingFailed(let path, let type, let reason):
            "the value at \"\(path)\" does not decode as \(type): \(reason)"
        case .encodingFailed(let type, let reason):
            "\(type) does not encode as a JSON object action: \(reason)"
        case .outboxFailed(let path, let reason):
            "the outbox \(path) cannot be used: \(reason)"
        case .tooManyPendingDispatches(let limit):
            "\(limit) dispatches are already waiting for the server's answer (the client's limit): not sent"
        case .invalidStore(let name):
            "invalid store name \"\(name)\": \(StoreName.rule)"
        }
    }
}
