/// Why a store administration request (``StoreAdminClient``) failed.
public struct StoreAdminError: Error, CustomStringConvertible, Sendable {
    private enum Base: Sendable {
        case unreachable(String, reason: String)
        case refused(status: Int, code: String, message: String)
        case badAnswer(String)
    }

    private let base: Base

    /// The server at `url` could not be reached or did not answer.
    static func unreachable(_ url: String, reason: String) -> StoreAdminError {
        StoreAdminError(base: .unreachable(url, reason: reason))
    }

    /// The server answered `status` with the error `code` and `message`.
    static func refused(status: Int, code: String, message: String) -> StoreAdminError {
        StoreAdminError(base: .refused(status: status, code: code, message: message))
    }

    /// The server's answer is not what the HTTP API documents.
    static func badAnswer(_ message: String) -> StoreAdminError {
        StoreAdminError(base: .badAnswer(message))
    }

    /// The HTTP status of a refusal (401, 403, 404, 409, …), `nil` for the other failures.
    public var status: Int? {
        if case .refused(let status, _, _) = base { return status }
        return nil
    }

    /// The error code of a refusal (`unauthorized`, `forbidden`, `not_found`, `conflict`, …), `nil` for the other failures.
    public var code: String? {
        if case .refused(_, let code, _) = base { return code }
        return nil
    }

    /// One line: what failed and why.
    public var description: String {
        switch base {
        case let .unreachable(url, reason): "cannot reach \(url): \(reason)"
        case let .refused(status, code, message): "the server refused (\(status) \(code)): \(message)"
        case .badAnswer(let message): "the server's answer is not understood: \(message)"
        }
    }
}
