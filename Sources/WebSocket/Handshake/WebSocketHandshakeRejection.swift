public import NIOHTTP1

/// Why the server refused an opening handshake, as its HTTP response: a status, extra headers and a plain-text
/// reason for a human, e.g. `400 Bad Request: Sec-WebSocket-Key "abc" is not base64 of 16 bytes`.
public struct WebSocketHandshakeRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The response status (400, 403, 405, 426 or 431).
    public var status: HTTPResponseStatus
    /// Headers the status needs, such as `Sec-WebSocket-Version: 13` on 426.
    public var headers: HTTPHeaders
    /// A one-line explanation, sent as the `text/plain` body.
    public var reason: String

    /// Creates a rejection.
    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], reason: String) {
        self.status = status
        self.headers = headers
        self.reason = reason
    }

    /// `"<code> <phrase>: <reason>"`.
    public var description: String { "\(status.code) \(status.reasonPhrase): \(reason)" }

    /// The full response head for this rejection (body length and type set,
    /// connection closed afterwards).
    public func responseHead(version: HTTPVersion = .http1_1) -> HTTPResponseHead {
        var headers = self.headers
        headers.replaceOrAdd(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.replaceOrAdd(name: "Content-Length", value: String(body.utf8.count))
        headers.replaceOrAdd(name: "Connection", value: "close")
        return HTTPResponseHead(version: version, status: status, headers: headers)
    }

    /// The response body: the reason and a newline.
    public var body: String { reason + "\n" }
}
