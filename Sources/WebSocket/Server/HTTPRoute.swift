public import NIOCore
public import NIOHTTP1

/// A plain HTTP endpoint served next to the WebSocket routes on the same
/// port, e.g. `GET /health`.
///
/// The handler runs on the connection's event loop and must not block; it
/// gets the request head and body and returns the whole response.
///
/// ```swift
/// HTTPRoute(path: "/health") { _, _ in HTTPRouteResponse(status: .ok, body: "ok\n") }
/// ```
public struct HTTPRoute: Sendable {
    /// Produces the response to one request.
    public typealias Handler = @Sendable (_ head: HTTPRequestHead, _ body: ByteBuffer) -> HTTPRouteResponse

    /// The exact path served (the query string is ignored when matching).
    public var path: String
    /// The methods served; others get 405. Default `[.GET, .HEAD]`.
    public var methods: [HTTPMethod]
    /// The handler.
    public var handler: Handler

    /// Creates a route.
    public init(path: String, methods: [HTTPMethod] = [.GET, .HEAD], handler: @escaping Handler) {
        self.path = path
        self.methods = methods
        self.handler = handler
    }
}

/// The response of an ``HTTPRoute``.
public struct HTTPRouteResponse: Sendable {
    /// The status.
    public var status: HTTPResponseStatus
    /// Headers; `Content-Length` is added from the body.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: ByteBuffer

    /// A response with a byte body.
    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a text body (`text/plain; charset=utf-8` unless `headers` say otherwise).
    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: String) {
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        }
        self.init(status: status, headers: headers, body: ByteBuffer(string: body))
    }
}
