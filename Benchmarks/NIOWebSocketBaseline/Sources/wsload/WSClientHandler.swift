import NIOCore
import NIOWebSocket

/// The run's mode: echo round trips or broadcast deliveries.
enum Mode: String, CaseIterable, Sendable {
    case echo
    case broadcast
}

/// What every connection of a run shares.
struct LoadConfig: Sendable {
    var mode: Mode
    var size: Int
    var inflight: Int
}

/// One load connection after the upgrade: sends stamped messages, measures what
/// comes back, answers pings, and closes with the handshake.
///
/// `@unchecked Sendable`: the run calls into it from other threads only through
/// `channel.eventLoop.execute`, so all of its state is touched on that loop.
final class WSClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let config: LoadConfig
    private let stats: LoopStats
    private var context: ChannelHandlerContext?

    // echo
    private var running = false
    private var endNanos: UInt64 = 0
    private var outstanding = 0
    private var drained: EventLoopPromise<Void>?
    // broadcast
    private var nextExpectedSeq: UInt64 = 0
    // close
    private var closing = false
    private var needsFlush = false

    init(config: LoadConfig, stats: LoopStats) {
        self.config = config
        self.stats = stats
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    /// Client frames are masked (RFC 6455 §5.3); `WebSocketFrameEncoder` applies the key.
    private func maskedFrame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(using: &self.stats.rng), data: data)
    }

    // MARK: Echo

    /// Sends `inflight` messages, and a new one for every echo, until `endNanos`.
    func startEcho(endNanos: UInt64, drained: EventLoopPromise<Void>) {
        guard let context = self.context else {
            drained.succeed(())
            return
        }
        self.endNanos = endNanos
        self.drained = drained
        self.running = true
        for _ in 0..<self.config.inflight { self.sendEchoMessage(context: context) }
        context.flush()
    }

    private func sendEchoMessage(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: self.config.size)
        Stamp.writeHex(nowNanos(), into: &buffer)
        Stamp.pad(&buffer, to: self.config.size)
        context.write(Self.wrapOutboundOut(self.maskedFrame(.text, buffer)), promise: nil)
        self.outstanding += 1
        self.needsFlush = true
    }

    private func echoReceived(context: ChannelHandlerContext, payload: ByteBuffer) {
        let now = nowNanos()
        self.outstanding -= 1
        guard payload.readableBytes == self.config.size, let sent = Stamp.readHex(payload, offset: 0) else {
            self.stats.errors += 1
            return
        }
        if self.running && now <= self.endNanos {
            self.stats.record(now &- sent)
            self.stats.messages += 1
            self.sendEchoMessage(context: context)
        } else {
            self.running = false
            if self.outstanding == 0 { self.finishDrain() }
        }
    }

    /// Stops sending; the drain promise succeeds once every echo is back.
    func stopEcho() {
        self.running = false
        if self.outstanding == 0 { self.finishDrain() }
    }

    private func finishDrain() {
        self.drained?.succeed(())
        self.drained = nil
    }

    /// On timeout: every echo that never came back counts as an error.
    func abandonOutstanding() {
        if self.outstanding > 0 {
            self.stats.errors += UInt64(self.outstanding)
            self.outstanding = 0
        }
        self.finishDrain()
    }

    // MARK: Broadcast

    /// The sender's message: 16 hex digits of sequence number, 16 of send time, padding.
    func sendBroadcast(seq: UInt64) {
        guard let context = self.context else { return }
        var buffer = context.channel.allocator.buffer(capacity: self.config.size)
        Stamp.writeHex(seq, into: &buffer)
        Stamp.writeHex(nowNanos(), into: &buffer)
        Stamp.pad(&buffer, to: self.config.size)
        context.writeAndFlush(Self.wrapOutboundOut(self.maskedFrame(.text, buffer)), promise: nil)
    }

    private func broadcastReceived(payload: ByteBuffer) {
        let now = nowNanos()
        guard let seq = Stamp.readHex(payload, offset: 0), let sent = Stamp.readHex(payload, offset: 16) else {
            self.stats.errors += 1
            return
        }
        // TCP keeps order: a gap is a lost message, a repeat a duplicate.
        if seq != self.nextExpectedSeq { self.stats.errors += 1 }
        self.nextExpectedSeq = seq &+ 1
        self.stats.messages += 1
        self.stats.lastDeliveryNanos = max(self.stats.lastDeliveryNanos, now)
        self.stats.record(now &- sent)
    }

    // MARK: Close handshake

    /// Sends a masked close frame (1000); the server answers and drops TCP.
    func beginClose() {
        guard let context = self.context, !self.closing else { return }
        self.closing = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        context.writeAndFlush(Self.wrapOutboundOut(self.maskedFrame(.connectionClose, data)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            if !frame.fin { self.stats.errors += 1 }  // the servers under test never fragment
            switch self.config.mode {
            case .echo: self.echoReceived(context: context, payload: frame.data)
            case .broadcast: self.broadcastReceived(payload: frame.data)
            }
        case .ping:
            context.write(Self.wrapOutboundOut(self.maskedFrame(.pong, frame.data)), promise: nil)
            self.needsFlush = true
        case .connectionClose:
            if self.closing {
                context.close(promise: nil)  // the handshake is complete
            } else {
                // A close the server started: an error for a load run.
                self.stats.errors += 1
                self.closing = true
                var data = frame.data
                let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
                context.writeAndFlush(Self.wrapOutboundOut(self.maskedFrame(.connectionClose, code)), promise: nil)
                context.close(promise: nil)
            }
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if self.needsFlush {
            self.needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !self.closing { self.stats.errors += 1 }  // dropped without a close
        self.abandonOutstanding()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        self.stats.errors += 1
        context.close(promise: nil)
    }
}
