import NIOCore

/// Carries out the decisions of ``WebSocketConnectionStateMachine`` on a channel and hands messages to its
/// ``WebSocketDelivery``; its ``ReadFlowStateMachine`` decides when it reads and flushes. Each delivery mode
/// installs it with its own `install` (``TaskDelivery``, ``EventLoopDelivery``).
final class WebSocketChannelHandler<Delivery: WebSocketDelivery>: ChannelDuplexHandler, RemovableChannelHandler,
    WebSocketOutboundTarget, EventLoopTimerOwner, EventLoopWriteBatchMember
{
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var machine: WebSocketConnectionStateMachine
    private var readFlow: ReadFlowStateMachine
    private let clock: ArrivalClock
    /// Queued outbound bytes above which the connection is closed with 1008.
    private let maxOutboundBytes: Int
    /// The server's open connections, which this one joins while it is open
    /// (none for a client's).
    private let registry: ConnectionRegistry?
    /// When the bytes of the current `channelRead` arrived: read from
    /// ``clock`` once, when the read delivers its first message.
    private var arrival: ContinuousClock.Instant?
    private var context: ChannelHandlerContext?
    private var outbound: WebSocketOutbound?
    private var cumulation: ByteBuffer?
    /// The timers of the connection's event loop, which hold its one timer.
    private var timers: EventLoopTimers?
    /// Where the timer is in ``timers``; `nil` when none is armed.
    var timerSlot: Int?
    private var timerDeadline: NIODeadline?
    /// Where the connection stands in its loop's ``EventLoopWriteBatch``.
    private var batched = WriteBatchMembership()
    private var writabilityWaiters: [EventLoopPromise<Void>] = []
    /// The pongs written and not yet sent; past a few, only the latest is kept.
    private var pongs = PongBacklog()
    /// Where received messages go; the mode's `install` completes it once
    /// the outbound writer exists.
    var delivery: Delivery

    private init(
        machine: WebSocketConnectionStateMachine, readFlow: ReadFlowStateMachine, clock: ArrivalClock,
        maxOutboundBytes: Int, registry: ConnectionRegistry?, delivery: Delivery
    ) {
        self.machine = machine
        self.readFlow = readFlow
        self.clock = clock
        self.maxOutboundBytes = maxOutboundBytes
        self.registry = registry
        self.delivery = delivery
    }

    deinit {
        // The loop's timer heap does not retain its owners: `finish` disarms.
        assert(timerSlot == nil, "a WebSocket handler went away with its timer armed")
    }

    /// Makes a connection's handler, delivering to `delivery`, and its outbound writer; the mode's `install` then
    /// calls ``add(to:after:options:)``. A server's connection stays in `registry` until it ends.
    static func make(
        on channel: any Channel, role: WebSocketRole, configuration: WebSocketConfiguration,
        options: WebSocketChannelOptions, subprotocol: String?, compression: PerMessageDeflateParameters?,
        registry: ConnectionRegistry?, delivery: Delivery
    ) -> (handler: WebSocketChannelHandler, outbound: WebSocketOutbound) {
        let machine = WebSocketConnectionStateMachine(
            role: role, configuration: configuration, deflate: compression, now: channel.eventLoop.now)
        let handler = WebSocketChannelHandler(
            machine: machine, readFlow: ReadFlowStateMachine(readsOnlyWhenWritable: role == .server),
            clock: options.arrivalClock, maxOutboundBytes: options.maxOutboundBytes, registry: registry, delivery: delivery)
        let outbound = WebSocketOutbound(channel: channel, subprotocol: subprotocol, handler: handler)
        handler.outbound = outbound
        return (handler, outbound)
    }

    /// Sets the channel's outbound watermarks and adds the handler after
    /// `after` (the HTTP stage that is about to leave).
    func add(to channel: any Channel, after: any ChannelHandler, options: WebSocketChannelOptions) throws {
        try channel.syncOptions?.setOption(
            .writeBufferWaterMark,
            value: .init(low: options.outboundLowWatermark, high: options.outboundHighWatermark))
        try channel.pipeline.syncOperations.addHandler(self, position: .after(after))
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        rearmTimer()
        if let outbound {
            registry?.add(outbound)
            delivery.connectionOpened(outbound)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(status: machine.connectionClosed())
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(status: machine.connectionClosed())
        context.fireChannelInactive()
    }

    private func finish(status: WebSocketCloseStatus) {
        timers?.arm(self, at: nil)
        timerDeadline = nil
        readFlow.stopReading()
        // The status is recorded before the delivery ends, so a receiver
        // that sees the end can read it.
        let outbound = self.outbound
        self.outbound = nil
        outbound?.recordClose(status)
        if let outbound { registry?.remove(outbound) }
        let waiters = writabilityWaiters
        writabilityWaiters = []
        waiters.forEach { $0.fail(WebSocketSendError.closing(.closed)) }
        if let outbound {
            delivery.connectionClosed(outbound, status: status)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Transport errors (TLS, resets): nothing more can be said on this connection.
        context.close(promise: nil)
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .decode = readFlow.channelRead() else { return }
        var bytes = unwrapInboundIn(data)
        if cumulation == nil {
            cumulation = bytes
        } else {
            cumulation!.writeBuffer(&bytes)
        }
        arrival = nil
        let now = context.eventLoop.now
        while !readFlow.isStopped, let action = machine.read(from: &cumulation!, now: now) {
            perform(action, context: context)
        }
        arrival = nil
        if let buffer = cumulation, buffer.readableBytes == 0 {
            cumulation = nil
        } else if cumulation!.readerIndex > 64 * 1024 {
            cumulation!.discardReadBytes()
        }
        rearmTimer()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .flush = readFlow.channelReadComplete() {
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    /// Reads only while the receiver keeps up and, on the server, while the
    /// channel is writable: a client that sends without reading (pings,
    /// requests) cannot make the server queue answers without bound.
    func read(context: ChannelHandlerContext) {
        if case .read = readFlow.read(channelWritable: context.channel.isWritable) {
            context.read()
        }
    }

    /// The receiver, behind before, takes messages again.
    func receiverCaughtUp() {
        perform(readFlow.receiverCaughtUp(channelWritable: isWritable))
    }

    /// The receiver cannot take more messages for now: no more socket reads
    /// (the bytes of the current read are still delivered) until ``resumeReading()``.
    func holdReading() {
        readFlow.holdReading()
    }

    /// The receiver takes messages again.
    func resumeReading() {
        perform(readFlow.resumeReading(channelWritable: isWritable))
    }

    /// Whether the channel is writable; `false` once the handler left the pipeline.
    private var isWritable: Bool {
        context?.channel.isWritable ?? false
    }

    private func perform(_ action: ReadFlowStateMachine.ReadAction) {
        if case .read = action {
            context?.read()
        }
    }

    private func perform(_ action: WebSocketConnectionAction, context: ChannelHandlerContext) {
        switch action {
        case .doNothing:
            break
        case .deliver(let message):
            deliver(message)
        case .write(let bytes):
            write(bytes, context: context)
        case .pong(let bytes):
            if let pong = pongs.answer(bytes) {
                writePong(pong, context: context)
            } else {
                readFlow.pongsBackedUp()
            }
        case .close(let close):
            if close.closeConnection {
                readFlow.stopReading()
            }
            if let frame = close.frame {
                let written = context.writeAndFlush(wrapOutboundOut(frame))
                if close.closeConnection {
                    written.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
                }
            } else if close.closeConnection {
                context.close(promise: nil)
            }
        }
    }

    private func deliver(_ message: WebSocketMessage) {
        guard let outbound else { return }
        // Stamped here, as the bytes are read, not when a task or a handler's
        // backlog gets to the message: a consumer that stalled must not see
        // a steady peer as a burst.
        let received = WebSocketReceivedMessage(message: message, receivedAt: arrivalOfThisRead())
        if case .receiverBehind = delivery.deliver(received, outbound: outbound) {
            readFlow.receiverFellBehind()
        }
    }

    /// When the bytes of the current `channelRead` arrived, read from the clock once per read.
    private func arrivalOfThisRead() -> ContinuousClock.Instant {
        let receivedAt = arrival ?? clock.now()
        arrival = receivedAt
        return receivedAt
    }

    // MARK: Outbound (WebSocketOutboundTarget)

    func send(_ message: WebSocketMessage, promise: EventLoopPromise<Void>?) {
        encodeAndWrite(promise: promise) { (machine) throws(WebSocketSendError) in try machine.send(message) }
    }

    func send(_ prepared: WebSocketPreparedMessage, promise: EventLoopPromise<Void>?) {
        encodeAndWrite(promise: promise) { (machine) throws(WebSocketSendError) in try machine.send(prepared) }
    }

    private func encodeAndWrite(
        promise: EventLoopPromise<Void>?,
        _ encode: (inout WebSocketConnectionStateMachine) throws(WebSocketSendError) -> ByteBuffer
    ) {
        guard let context else {
            promise?.fail(WebSocketSendError.closing(.closed))
            return
        }
        do {
            let bytes = try encode(&machine)
            write(bytes, context: context)
            if let promise { succeedWhenWritable(promise) }
        } catch {
            promise?.fail(error)
        }
    }

    func close(status: WebSocketCloseStatus, promise: EventLoopPromise<Void>?) {
        guard let context else {
            promise?.succeed()
            return
        }
        do {
            perform(try machine.close(status, now: context.eventLoop.now), context: context)
            rearmTimer()
            if let promise { context.channel.closeFuture.cascade(to: promise) }
        } catch {
            promise?.fail(error)
        }
    }

    func waitUntilWritable(_ promise: EventLoopPromise<Void>) {
        guard context != nil else {
            promise.fail(WebSocketSendError.closing(.closed))
            return
        }
        succeedWhenWritable(promise)
    }

    var bufferedOutboundBytes: Int {
        (try? context?.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0  // socket channels always support it
    }

    /// Writes `pong`; once it is sent (or the connection ended), writes the
    /// pong held back meanwhile, if any.
    private func writePong(_ pong: ByteBuffer, context: ChannelHandlerContext) {
        let sent = context.eventLoop.makePromise(of: Void.self)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        sent.futureResult.whenComplete { _ in
            let handler = handler.value
            if let next = handler.pongs.sent() {
                if let context = handler.context { handler.writePong(next, context: context) }
            } else {
                handler.perform(handler.readFlow.pongsCaughtUp(channelWritable: handler.isWritable))
            }
        }
        write(pong, context: context, promise: sent)
    }

    private func write(_ bytes: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>? = nil) {
        context.write(wrapOutboundOut(bytes), promise: promise)
        if case .flush = readFlow.write(), batched.flushesNow(self, on: context.eventLoop) {
            context.flush()
        }
        // Below the high-water mark the backlog is small: ask for its size only above it.
        if !context.channel.isWritable, bufferedOutboundBytes > maxOutboundBytes {
            overflowed(context: context)
        }
    }

    func flushBatchedWrites() {
        batched.flushed()
        context?.flush()
    }

    /// The peer takes less than is queued for it: close with 1008. The close
    /// frame waits behind the backlog; the close timeout drops the connection
    /// if the peer never reads it, and nothing more is queued meanwhile.
    private func overflowed(context: ChannelHandlerContext) {
        let status = WebSocketCloseStatus(
            code: .policyViolation, reason: "more than \(maxOutboundBytes) bytes queued for this connection")
        // 1008 is always valid on the wire: `close` cannot throw here.
        guard let action = try? machine.close(status, now: context.eventLoop.now) else { return }
        perform(action, context: context)
        rearmTimer()
    }

    private func succeedWhenWritable(_ promise: EventLoopPromise<Void>) {
        if context?.channel.isWritable ?? false {
            promise.succeed()
        } else {
            writabilityWaiters.append(promise)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, !writabilityWaiters.isEmpty {
            let waiters = writabilityWaiters
            writabilityWaiters = []
            waiters.forEach { $0.succeed() }
        }
        context.fireChannelWritabilityChanged()
        perform(readFlow.channelWritabilityChanged(channelWritable: context.channel.isWritable))
    }

    // MARK: Timers

    /// Keeps one timer at the machine's next deadline, in the loop's ``EventLoopTimers``. A timer firing before a
    /// moved deadline is harmless (the machine answers `doNothing` and it is re-armed), so activity never reschedules.
    private func rearmTimer() {
        guard let context else { return }
        let deadline = machine.nextDeadline
        if let current = timerDeadline, let deadline, current <= deadline { return }
        if timerDeadline != nil, deadline == nil { return }
        timerDeadline = deadline
        if timers == nil { timers = EventLoopTimers.on(context.eventLoop) }
        timers?.arm(self, at: deadline)
    }

    func timerDue() {
        timerDeadline = nil
        guard let context else { return }
        perform(machine.timerFired(now: context.eventLoop.now), context: context)
        rearmTimer()
    }
}

@available(*, unavailable)
extension WebSocketChannelHandler: Sendable {}
