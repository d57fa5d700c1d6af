import NIOCore
import NIOHTTP1

/// The per-connection HTTP/1.1 stage of the server: routes each request to an ``HTTPRoute`` (or 404), or performs
/// the WebSocket upgrade, then leaves the pipeline handing on every byte after the request head (a client may
/// send its first frames in the same packet).
final class HTTPServerHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Installs the WebSocket handlers for an accepted upgrade, after `self`.
    typealias Installer = (
        _ channel: any Channel, _ route: WebSocketRoute, _ acceptance: WebSocketHandshakeAcceptance,
        _ after: HTTPServerHandler
    ) throws -> Void

    private enum State {
        case idle
        case http(HTTPRequestHead, route: RouteMatch?, body: ByteBuffer)
        case bodyTooLarge(HTTPRequestHead)
        /// The request filter refused it: answered with this at its end, then closed.
        case refused(HTTPRequestHead, HTTPRouteResponse)
        case webSocket(HTTPRequestHead, WebSocketRoute)
        case upgrading(buffered: [NIOAny])
        /// An ``HTTPRoute/AsyncHandler`` is producing the response; requests
        /// pipelined behind it wait here, in order.
        case responding(pending: [HTTPServerRequestPart])
        /// A streamed response is being written; nothing more is read as requests.
        case streaming(HTTPResponseStream)
        case closing
    }

    private let router: ServerRouter
    private let limiter: RequestHeadSizeLimiter
    private let connectionGuard: HTTPConnectionGuard
    private let decoder: any RemovableChannelHandler
    private let encoder: HTTPResponseEncoder
    private let maxBodySize: Int
    private let filter: (@Sendable (HTTPRequestHead) -> HTTPRouteResponse?)?
    private let install: Installer
    private var state = State.idle

    init(
        router: ServerRouter, limiter: RequestHeadSizeLimiter, connectionGuard: HTTPConnectionGuard, decoder: any RemovableChannelHandler,
        encoder: HTTPResponseEncoder, maxBodySize: Int, filter: (@Sendable (HTTPRequestHead) -> HTTPRouteResponse?)?,
        install: @escaping Installer
    ) {
        self.filter = filter
        self.router = router
        self.limiter = limiter
        self.connectionGuard = connectionGuard
        self.decoder = decoder
        self.encoder = encoder
        self.maxBodySize = maxBodySize
        self.install = install
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .upgrading(var buffered) = state {
            // Raw bytes the decoder hands on when it leaves: WebSocket frames.
            state = .idle
            buffered.append(data)
            state = .upgrading(buffered: buffered)
            return
        }
        handle(unwrapInboundIn(data), context: context)
    }

    private func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        if case .streaming = state { return }
        if case .responding(var pending) = state {
            state = .idle
            pending.append(part)
            state = .responding(pending: pending)
            return
        }
        switch part {
        case .head(let head):
            limiter.headReceived()
            received(head: head)
        case .body(var chunk):
            switch state {
            case .http(let head, let route, var body):
                if body.readableBytes + chunk.readableBytes > maxBodySize {
                    state = .bodyTooLarge(head)
                } else {
                    state = .idle
                    body.writeBuffer(&chunk)
                    state = .http(head, route: route, body: body)
                }
            default:
                break
            }
        case .end:
            limiter.requestEnded()
            connectionGuard.requestEnded()
            requestEnded(context: context)
        }
    }

    private func received(head: HTTPRequestHead) {
        if let refusal = filter?(head) {
            state = .refused(head, refusal)
            return
        }
        let path = ServerRouter.path(of: head.uri)
        let httpRoute = router.httpRoute(for: path)
        if let route = router.webSocketRoutes[path], head.headers.contains(name: "Upgrade") || httpRoute == nil {
            state = .webSocket(head, route)
        } else {
            state = .http(head, route: httpRoute, body: ByteBuffer())
        }
    }

    private func requestEnded(context: ChannelHandlerContext) {
        switch state {
        case .http(let head, let route, let body):
            state = .idle
            let parameters = route?.parameters ?? [:]
            switch responder(for: head, route: route?.route) {
            case .immediate(let handler):
                respond(context: context, head: head, response: handler(head, body))
            case .deferred(let handler):
                respondLater(context: context, head: head, handler: handler, body: body, parameters: parameters)
            case .streaming(let handler):
                let stream = HTTPResponseStream(context: context, request: head)
                state = .streaming(stream)
                var request = HTTPRouteRequest(head: head, body: body, remoteAddress: context.remoteAddress)
                request.pathParameters = parameters
                handler(request, stream)
            }
        case let .refused(head, response):
            state = .closing
            respond(context: context, head: head, response: response, close: true)
        case .bodyTooLarge(let head):
            state = .closing
            let response = HTTPRouteResponse(
                status: .payloadTooLarge, body: "request body exceeds \(maxBodySize) bytes\n")
            respond(context: context, head: head, response: response, close: true)
        case .webSocket(let head, let route):
            switch route.handshake.evaluate(head, compression: route.configuration.compression) {
            case .accept(let acceptance):
                upgrade(context: context, route: route, acceptance: acceptance)
            case .reject(let rejection):
                state = .closing
                let response = HTTPRouteResponse(status: rejection.status, headers: rejection.headers, body: rejection.body)
                respond(context: context, head: head, response: response, close: true)
            }
        case .idle, .upgrading, .responding, .streaming, .closing:
            break
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if case .streaming(let stream) = state { stream.writabilityChanged() }
        context.fireChannelWritabilityChanged()
    }

    /// Runs `handler` in a task (NIO's `makeFutureWithTask`, awaited through
    /// its future), writes its response on the event loop, then handles the
    /// requests that were pipelined meanwhile.
    private func respondLater(
        context: ChannelHandlerContext, head: HTTPRequestHead, handler: @escaping HTTPRoute.RequestHandler, body: ByteBuffer,
        parameters: [String: String]
    ) {
        state = .responding(pending: [])
        var request = HTTPRouteRequest(head: head, body: body, remoteAddress: context.remoteAddress)
        request.pathParameters = parameters
        let response = context.eventLoop.makeFutureWithTask { await handler(request) }
        response.assumeIsolated().whenSuccess { response in
            guard case .responding(let pending) = self.state, context.channel.isActive else { return }
            self.state = .idle
            self.respond(context: context, head: head, response: response)
            // A part that starts another async response queues the rest (see `handle`).
            for part in pending { self.handle(part, context: context) }
        }
    }

    /// What answers `head`: the route's handler, or a 404 or 405.
    private func responder(for head: HTTPRequestHead, route: HTTPRoute?) -> HTTPRoute.Responder {
        guard let route else {
            let response = HTTPRouteResponse(status: .notFound, body: "no route for \(ServerRouter.path(of: head.uri))\n")
            return .immediate { _, _ in response }
        }
        guard route.methods.contains(head.method) else {
            let allowed = route.methods.map(\.rawValue).joined(separator: ", ")
            let response = HTTPRouteResponse(
                status: .methodNotAllowed, headers: ["Allow": allowed],
                body: "\(head.method.rawValue) is not allowed on \(route.path)\n")
            return .immediate { _, _ in response }
        }
        return route.responder
    }

    private func respond(
        context: ChannelHandlerContext, head request: HTTPRequestHead, response: HTTPRouteResponse, close: Bool = false
    ) {
        let keepAlive = request.isKeepAlive && !close
        var headers = response.headers
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.readableBytes))
        if !keepAlive {
            headers.replaceOrAdd(name: "Connection", value: "close")
        }
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD && response.body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if keepAlive {
            connectionGuard.responseSent()
        } else {
            written.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        }
    }

    private func upgrade(context: ChannelHandlerContext, route: WebSocketRoute, acceptance: WebSocketHandshakeAcceptance) {
        state = .upgrading(buffered: [])
        context.write(wrapOutboundOut(.head(acceptance.responseHead)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        ProtocolSwitch.replaceHTTPHandlers(context: context, removing: [connectionGuard, limiter, encoder], decoder: decoder) {
            try self.install(context.channel, route, acceptance, self)
        } failed: { _ in
            self.state = .closing
            context.close(promise: nil)
        }
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        var buffered: [NIOAny] = []
        if case .upgrading(let pending) = state { buffered = pending }
        state = .closing
        ProtocolSwitch.leave(context: context, removalToken: removalToken, delivering: buffered)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Malformed HTTP (the decoder's parse errors): answer 400 once, then
        // close. Not to a connection that is gone (a request cut short).
        guard case .idle = state, context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        state = .closing
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        respond(context: context, head: head, response: HTTPRouteResponse(status: .badRequest, body: "malformed HTTP request: \(error)\n"), close: true)
    }
}

@available(*, unavailable)
extension HTTPServerHandler: Sendable {}
