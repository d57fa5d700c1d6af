import NIOCore
import NIOHTTP1

/// Sits in front of the HTTP decoder and answers 431 to a request head growing past the limit. Armed while a
/// head is expected (``HTTPServerHandler`` disarms and re-arms it); it checks after the decoder saw the bytes,
/// so a head completing in the same read is never refused.
final class RequestHeadSizeLimiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: Int
    private var counted = 0
    private var armed = true
    private var refused = false

    init(limit: Int) {
        self.limit = limit
    }

    /// A request head was decoded: stop counting until the request ends.
    func headReceived() {
        armed = false
    }

    /// A request ended: the next bytes belong to the next head.
    func requestEnded() {
        armed = true
        counted = 0
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if armed {
            counted += unwrapInboundIn(data).readableBytes
        }
        context.fireChannelRead(data)
        if armed && counted > limit {
            refuse(context: context)
        }
    }

    private func refuse(context: ChannelHandlerContext) {
        refused = true
        let rejection = WebSocketHandshakeRejection(
            status: .requestHeaderFieldsTooLarge,
            reason: "request head exceeds \(limit) bytes")
        RawHTTPRefusal.writeAndClose(rejection, context: context)
    }
}

@available(*, unavailable)
extension RequestHeadSizeLimiter: Sendable {}
