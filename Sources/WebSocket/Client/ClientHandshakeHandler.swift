import NIOCore
import NIOHTTP1

/// Sends the upgrade request when the channel becomes active, validates the
/// response, and on success swaps the HTTP handlers for the WebSocket handler
/// (handing on bytes that arrived right behind the 101 response).
final class ClientHandshakeHandler<Result: Sendable>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// Installs the WebSocket handler after `self` and returns what the
    /// caller of `connect` gets (the connection, or its outbound side).
    typealias Installer = (
        _ channel: any Channel, _ accepted: WebSocketClientHandshake.Accepted, _ after: ClientHandshakeHandler
    ) throws -> Result

    private enum State {
        case waiting
        case receivedSwitch(WebSocketClientHandshake.Accepted)
        case receivedRejection(HTTPResponseHead, body: ByteBuffer)
        case upgrading(buffered: [NIOAny])
        case done
    }

    /// The most rejection body kept for the error message.
    static var maxRejectionBody: Int { 4096 }

    private let handshake: WebSocketClientHandshake
    private let encoder: HTTPRequestEncoder
    private let decoder: any RemovableChannelHandler
    private let install: Installer
    private let result: EventLoopPromise<Result>
    private var state = State.waiting
    private var requestSent = false

    init(
        handshake: WebSocketClientHandshake, encoder: HTTPRequestEncoder, decoder: any RemovableChannelHandler,
        result: EventLoopPromise<Result>, install: @escaping Installer
    ) {
        self.handshake = handshake
        self.encoder = encoder
        self.decoder = decoder
        self.result = result
        self.install = install
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendRequest(context: context)
        context.fireChannelActive()
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard !requestSent else { return }
        requestSent = true
        context.write(wrapOutboundOut(.head(handshake.requestHead)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .upgrading(var buffered):
            state = .done
            buffered.append(data)
            state = .upgrading(buffered: buffered)
            return
        case .done:
            return
        case .waiting, .receivedSwitch, .receivedRejection:
            break
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if head.status == .switchingProtocols {
                do {
                    state = .receivedSwitch(try handshake.validate(head))
                } catch {
                    fail(context: context, error)
                }
            } else {
                state = .receivedRejection(head, body: context.channel.allocator.buffer(capacity: 0))
            }
        case .body(var chunk):
            if case .receivedRejection(let head, var body) = state {
                let room = Self.maxRejectionBody - body.readableBytes
                if room > 0, let slice = chunk.readSlice(length: min(room, chunk.readableBytes)) {
                    body.writeImmutableBuffer(slice)
                }
                state = .receivedRejection(head, body: body)
            }
        case .end:
            switch state {
            case .receivedSwitch(let accepted):
                upgrade(context: context, accepted: accepted)
            case .receivedRejection(let head, let body):
                let text = String(buffer: body)
                fail(context: context, WebSocketHandshakeError.rejected(status: head.status, body: text))
            default:
                break
            }
        }
    }

    private func upgrade(context: ChannelHandlerContext, accepted: WebSocketClientHandshake.Accepted) {
        state = .upgrading(buffered: [])
        var connection: Result?
        ProtocolSwitch.replaceHTTPHandlers(context: context, removing: [encoder], decoder: decoder) {
            connection = try self.install(context.channel, accepted, self)
        } switched: {
            if let connection { self.result.succeed(connection) }
        } failed: { error in
            self.fail(context: context, error)
        }
    }

    func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
        var buffered: [NIOAny] = []
        if case .upgrading(let pending) = state { buffered = pending }
        state = .done
        ProtocolSwitch.leave(context: context, removalToken: removalToken, delivering: buffered)
    }

    private func fail(context: ChannelHandlerContext, _ error: any Error) {
        state = .done
        result.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .done = state {} else if case .upgrading = state {} else {
            fail(context: context, WebSocketHandshakeError.connectionClosedDuringHandshake)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .done = state { return context.fireErrorCaught(error) }
        fail(context: context, error)
    }
}

@available(*, unavailable)
extension ClientHandshakeHandler: Sendable {}
