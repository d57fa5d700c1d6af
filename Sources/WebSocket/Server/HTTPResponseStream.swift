public import NIOCore
public import NIOHTTP1

/// The response of a route made with ``HTTPRoute/init(path:methods:streamHandler:)``, written over time (Server-Sent
/// Events, a long poll): ``start(status:headers:)`` once, ``write(_:)`` (each part flushed), then ``finish()``.
/// Callable from any thread, taking effect on the event loop in call order; a writer checks ``isWritable`` and
/// waits with ``whenWritable(_:)``.
///
/// ```swift
/// HTTPRoute(path: "/ticks", streamHandler: { request, stream in
///     stream.start(status: .ok, headers: ["Content-Type": "text/event-stream"])
///     stream.write(ByteBuffer(string: "data: hello\n\n"))
///     stream.closeFuture.whenComplete { _ in stopTicking() }
/// })
/// ```
public final class HTTPResponseStream: Sendable {
    private let channel: any Channel
    private let context: NIOLoopBound<ChannelHandlerContext>
    private let waiters: NIOLoopBoundBox<[@Sendable () -> Void]>
    private let request: HTTPRequestHead

    /// The event loop of the connection; timers for the stream belong here.
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// Succeeds when the connection has closed (the client went away, or after ``finish()``).
    public var closeFuture: EventLoopFuture<Void> { channel.closeFuture }

    /// Whether the connection's outbound buffer is below its high-water mark.
    public var isWritable: Bool { channel.isWritable }

    /// Made by the HTTP stage on the connection's event loop.
    init(context: ChannelHandlerContext, request: HTTPRequestHead) {
        channel = context.channel
        self.context = NIOLoopBound(context, eventLoop: context.eventLoop)
        waiters = NIOLoopBoundBox([], eventLoop: context.eventLoop)
        self.request = request
    }

    /// Writes the response head. No `Content-Length`: the body is sent in
    /// parts until ``finish()``, and the connection closes after it.
    public func start(status: HTTPResponseStatus, headers: HTTPHeaders = [:]) {
        var headers = headers
        headers.remove(name: "Content-Length")
        headers.replaceOrAdd(name: "Connection", value: "close")
        let head = HTTPResponseHead(version: request.version, status: status, headers: headers)
        onLoop { $0.writeAndFlush(NIOAny(HTTPServerResponsePart.head(head)), promise: nil) }
    }

    /// Writes and flushes one part of the body.
    public func write(_ bytes: ByteBuffer) {
        onLoop { $0.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(bytes))), promise: nil) }
    }

    /// Ends the body and closes the connection.
    public func finish() {
        onLoop { context in
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// Calls `writable` once the connection is writable again (at once when
    /// it is); never when the connection closes first.
    public func whenWritable(_ writable: @escaping @Sendable () -> Void) {
        eventLoop.execute { [self] in
            guard channel.isActive else { return }
            if channel.isWritable {
                writable()
            } else {
                waiters.value.append(writable)
            }
        }
    }

    /// Called by the HTTP stage when the channel's writability changed.
    func writabilityChanged() {
        guard channel.isWritable else { return }
        let ready = waiters.value
        waiters.value = []
        for waiter in ready { waiter() }
    }

    private func onLoop(_ body: @escaping @Sendable (ChannelHandlerContext) -> Void) {
        let context = context
        eventLoop.execute { body(context.value) }
    }
}
