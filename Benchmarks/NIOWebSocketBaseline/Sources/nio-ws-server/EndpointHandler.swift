import NIOCore
import NIOWebSocket

/// One handler per upgraded connection: answers pings, completes the close
/// handshake, closes on errors, and echoes (`/echo`) or fans out (`/broadcast`)
/// every message. `NIOWebSocketFrameAggregator`, in front of it, has joined fragments.
final class EndpointHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let endpoint: Endpoint
    private let hub: BroadcastHub
    private var registered = false
    private var closeSent = false
    private var needsFlush = false

    init(endpoint: Endpoint, hub: BroadcastHub) {
        self.endpoint = endpoint
        self.hub = hub
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The upgrade completes on a channel that is already active.
        if self.endpoint == .broadcast, context.channel.isActive {
            self.hub.register(context.channel)
            self.registered = true
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.unregister(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.unregister(context: context)
        context.fireChannelInactive()
    }

    private func unregister(context: ChannelHandlerContext) {
        if self.registered {
            self.registered = false
            self.hub.unregister(context.channel)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            switch self.endpoint {
            case .echo:
                // Written now, flushed once per read burst (channelReadComplete).
                let reply = WebSocketFrame(fin: true, opcode: frame.opcode, data: frame.unmaskedData)
                context.write(Self.wrapOutboundOut(reply), promise: nil)
                self.needsFlush = true
            case .broadcast:
                guard frame.opcode == .text else { return }
                self.hub.broadcast(WebSocketFrame(fin: true, opcode: .text, data: frame.unmaskedData))
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.write(Self.wrapOutboundOut(pong), promise: nil)
            self.needsFlush = true
        case .connectionClose:
            self.receivedClose(context: context, frame: frame)
        default:
            break  // pongs need no answer
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if self.needsFlush {
            self.needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    private func receivedClose(context: ChannelHandlerContext, frame: WebSocketFrame) {
        if self.closeSent {
            context.close(promise: nil)  // the peer answered our close
            return
        }
        // Echo the peer's status code (if any), then close TCP: RFC 6455 §7.1.1
        // has the server close the connection first.
        var data = frame.unmaskedData
        let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
        self.closeSent = true
        let closeFrame = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
        let loopBoundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(Self.wrapOutboundOut(closeFrame)).whenComplete { _ in
            loopBoundContext.value.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

@available(*, unavailable)
extension EndpointHandler: Sendable {}
