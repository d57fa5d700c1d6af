public import NIOCore
public import NIOHTTP1

/// A plain HTTP endpoint served next to the WebSocket routes on the same port, e.g. `GET /health`. A `handler`
/// runs on the event loop and must not block; an `asyncHandler` may suspend, and requests pipelined behind it
/// wait (answers stay in order); a `streamHandler` writes through an ``HTTPResponseStream``, then the
/// connection closes.
///
/// ```swift
/// HTTPRoute(path: "/health") { _, _ in HTTPRouteResponse(status: .ok, body: "ok\n") }
/// HTTPRoute(path: "/report", asyncHandler: { _, _ in HTTPRouteResponse(status: .ok, body: await report()) })
/// ```
public struct HTTPRoute: Sendable {
    /// Produces the response to one request, without blocking.
    public typealias Handler = @Sendable (_ head: HTTPRequestHead, _ body: ByteBuffer) -> HTTPRouteResponse
    /// Produces the response to one request; may suspend.
    public typealias AsyncHandler = @Sendable (_ head: HTTPRequestHead, _ body: ByteBuffer) async -> HTTPRouteResponse

    /// Produces the response to one request, knowing who sent it; may suspend.
    public typealias RequestHandler = @Sendable (_ request: HTTPRouteRequest) async -> HTTPRouteResponse
    /// Starts a response written over time; must not block.
    public typealias StreamHandler = @Sendable (_ request: HTTPRouteRequest, _ stream: HTTPResponseStream) -> Void

    /// How a route answers: at once on the event loop, from a task, or over time.
    enum Responder: Sendable {
        case immediate(Handler)
        case deferred(RequestHandler)
        case streaming(StreamHandler)
    }

    /// The path served (the query is ignored). A `{name}` segment matches any one non-empty segment, found in
    /// ``HTTPRouteRequest/pathParameters``; routes without one are matched first.
    public var path: String
    /// The methods served; others get 405. Default `[.GET, .HEAD]`.
    public var methods: [HTTPMethod]
    /// The handler.
    let responder: Responder

    /// A route answered on the event loop by `handler`.
    public init(path: String, methods: [HTTPMethod] = [.GET, .HEAD], handler: @escaping Handler) {
        self.path = path
        self.methods = methods
        self.responder = .immediate(handler)
    }

    /// A route answered by `asyncHandler`, which may suspend; it runs in a
    /// task the connection's event loop waits for.
    public init(path: String, methods: [HTTPMethod] = [.GET, .HEAD], asyncHandler: @escaping AsyncHandler) {
        self.path = path
        self.methods = methods
        self.responder = .deferred { request in await asyncHandler(request.head, request.body) }
    }

    /// A route answered by `requestHandler`, which may suspend and sees the
    /// peer's address (for per-client limits).
    public init(path: String, methods: [HTTPMethod] = [.GET, .HEAD], requestHandler: @escaping RequestHandler) {
        self.path = path
        self.methods = methods
        self.responder = .deferred(requestHandler)
    }

    /// A route whose `streamHandler` writes the response over time, calling
    /// ``HTTPResponseStream/start(status:headers:)`` first. The connection closes after it, so pipelined requests
    /// are not answered.
    public init(path: String, methods: [HTTPMethod] = [.GET], streamHandler: @escaping StreamHandler) {
        self.path = path
        self.methods = methods
        self.responder = .streaming(streamHandler)
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
