import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import WebSocket

/// An HTTP API answer that is not a success: a status and the protocol's
/// `{"code":…,"message":…}` body, the same codes and messages as on the
/// WebSocket.
struct HTTPAPIError: Error {
    var status: HTTPResponseStatus
    var code: String
    var message: String
    var headers: HTTPHeaders = [:]

    /// A protocol error (bad JSON with its byte offset, a bad path, a
    /// refused token, a forbidden path, too many paths, the rate limit).
    init(_ error: ProtocolError) {
        code = error.code.rawValue
        message = error.message
        switch error.code {
        case .unauthorized:
            status = .unauthorized
            headers = ["WWW-Authenticate": "Bearer"]
        case .forbidden: status = .forbidden
        case .rateLimited:
            status = .tooManyRequests
            headers = ["Retry-After": "1"]
        case .limitReached, .unavailable, .schemaTooNew:
            status = .serviceUnavailable
            headers = ["Retry-After": "1"]
        default: status = .badRequest   // upgrade_required among them
        }
    }

    /// An action's rejection: `422` invalid action, `403` not allowed, `429` rate
    /// limited, `500` server failure, `503` cannot store now or too many
    /// clientIds, `409` the app's rules (`not_found`, `state_too_large`, own codes).
    init(rejection code: String, message: String) {
        self.code = code
        self.message = message
        status = switch code {
        case "invalid_action": .unprocessableEntity
        case "forbidden": .forbidden
        case "rate_limited": .tooManyRequests
        case RejectCode.tooManyClients.rawValue: .serviceUnavailable
        case "internal_error": .internalServerError
        case RejectCode.unavailable.rawValue: .serviceUnavailable
        default: .conflict
        }
    }

    /// Any other failure.
    init(status: HTTPResponseStatus, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// `name` as a store name.
    ///
    /// - Throws: `400 invalid_store`, naming the rule.
    static func storeName(_ name: String) throws(HTTPAPIError) -> StoreName {
        do {
            return try StoreName(name)
        } catch {
            throw HTTPAPIError(error)
        }
    }

    /// The server is shutting down and takes no more requests.
    static var stopping: HTTPAPIError {
        HTTPAPIError(status: .serviceUnavailable, code: "unavailable", message: "the server is shutting down")
    }

    /// The response carrying it.
    var response: HTTPRouteResponse {
        var headers = headers
        headers.add(name: "Content-Type", value: "application/json")
        let body: JSONValue = ["code": .string(code), "message": .string(message)]
        return HTTPRouteResponse(status: status, headers: headers, body: JSONSerializer().string(for: body) + "\n")
    }
}
