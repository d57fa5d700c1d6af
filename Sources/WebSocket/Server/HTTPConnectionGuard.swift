import NIOCore
import NIOHTTP1

/// Keeps an HTTP connection from holding a descriptor or memory without using it: the first pipeline stage
/// (after TLS) until the WebSocket upgrade removes it. A request must complete within the request timeout (else
/// 408 and close), an idle kept-alive connection closes after the keep-alive timeout, no timer runs while a
/// response is produced, and nothing is read while the channel is not writable (a pipelining client stalls itself).
final class HTTPConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private enum Phase {
        /// A request is expected or arriving: the request timer runs.
        case receiving
        /// A request is complete and not yet answered; `sawBytes` when the
        /// next one has begun to arrive meanwhile (pipelining).
        case responding(sawBytes: Bool)
        /// Answered; waiting for the next request: the keep-alive timer runs.
        case idle
    }

    private let requestTimeout: TimeAmount
    private let keepAliveTimeout: TimeAmount
    private var phase = Phase.receiving
    /// Whether a byte of the current request arrived (for the 408).
    private var requestStarted = false
    private var readPending = false
    private var timer: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(requestTimeout: TimeAmount, keepAliveTimeout: TimeAmount) {
        self.requestTimeout = requestTimeout
        self.keepAliveTimeout = keepAliveTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        arm(requestTimeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
        // The next stage (the WebSocket) decides about reading from now on.
        if readPending {
            readPending = false
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .idle:
            phase = .receiving
            arm(requestTimeout)
        case .responding:
            phase = .responding(sawBytes: true)
        case .receiving:
            break
        }
        requestStarted = true
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            readPending = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        context.fireChannelWritabilityChanged()
        if readPending, context.channel.isWritable {
            readPending = false
            context.read()
        }
    }

    /// The request's last part was decoded: no timer until it is answered.
    func requestEnded() {
        phase = .responding(sawBytes: false)
        requestStarted = false
        timer?.cancel()
        timer = nil
    }

    /// A response was written and the connection stays open.
    func responseSent() {
        guard case .responding(let sawBytes) = phase else { return }
        if sawBytes {
            phase = .receiving
            requestStarted = true
            arm(requestTimeout)
        } else {
            phase = .idle
            arm(keepAliveTimeout)
        }
    }

    private func arm(_ timeout: TimeAmount) {
        timer?.cancel()
        guard let context else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) { handler.value.fired() }
    }

    private func fired() {
        timer = nil
        guard let context else { return }
        switch phase {
        case .receiving where !requestStarted:
            context.close(promise: nil)
        case .receiving:
            let rejection = WebSocketHandshakeRejection(
                status: .requestTimeout, reason: "the request was not complete within \(Self.describe(requestTimeout))")
            RawHTTPRefusal.writeAndClose(rejection, context: context)
        case .idle:
            context.close(promise: nil)
        case .responding:
            break
        }
    }
}

extension HTTPConnectionGuard {
    /// `10 s`, or `250 ms` below a whole second.
    static func describe(_ amount: TimeAmount) -> String {
        let milliseconds = amount.nanoseconds / 1_000_000
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
    }
}

@available(*, unavailable)
extension HTTPConnectionGuard: Sendable {}
