import NIOCore

/// Carries out the decisions of ``WebSocketConnectionStateMachine`` on a
/// channel: decodes frames as bytes arrive, delivers messages (to a task
/// through a backpressured sequence, or to an event-loop handler), answers
/// pings, runs the close handshake, keepalive and idle timers, and writes
/// outbound messages.
final class WebSocketChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    typealias Source = NIOAsyncSequenceProducer<
        WebSocketReceivedMessage, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, InboundDelegate
    >.Source

    private var machine: WebSocketConnectionStateMachine
    /// Released when the connection closes (it may hold the outbound writer).
    private var eventLoopHandler: (any WebSocketEventLoopHandler)?
    private let clock: ArrivalClock
    /// Queued outbound bytes above which the connection is closed with 1008.
    private let maxOutboundBytes: Int
    /// Whether reading waits while the channel is not writable: on the
    /// server only. Were both ends to do it, two peers sending much to each
    /// other could each wait for the other to read, for good.
    private let readsOnlyWhenWritable: Bool
    /// When the bytes of the current `channelRead` arrived: read from
    /// ``clock`` once, when the read delivers its first message.
    private var arrival: ContinuousClock.Instant?
    private var context: ChannelHandlerContext?
    private var outbound: WebSocketOutbound?
    private var source: Source?
    private var cumulation: ByteBuffer?
    /// Set once the machine said to close TCP: later bytes are ignored.
    private var stoppedReading = false
    /// The task consumer is behind: `read()` is held back until it catches up.
    /// (`read()` is also held back while the channel is not writable, see
    /// ``readsOnlyWhenWritable``.)
    private var readingPaused = false
    /// The event-loop handler asked to hold reading (``holdReading()``).
    private var readingHeld = false
    private var readPending = false
    /// Writes made while a read burst is handled are flushed once at its end.
    private var inReadBurst = false
    private var flushPending = false
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?
    private var writabilityWaiters: [EventLoopPromise<Void>] = []

    private init(
        machine: WebSocketConnectionStateMachine, eventLoopHandler: (any WebSocketEventLoopHandler)?, clock: ArrivalClock,
        maxOutboundBytes: Int, readsOnlyWhenWritable: Bool
    ) {
        self.machine = machine
        self.eventLoopHandler = eventLoopHandler
        self.clock = clock
        self.maxOutboundBytes = maxOutboundBytes
        self.readsOnlyWhenWritable = readsOnlyWhenWritable
    }

    /// Installs a connection's handler after `after` (the HTTP stage that is
    /// about to leave) and returns its outbound writer, plus the inbound
    /// sequence when messages go to a task (`eventLoopHandler == nil` and
    /// no `makeEventLoopHandler`). `makeEventLoopHandler`, when given, makes
    /// the connection's own event-loop handler from its outbound writer.
    static func install(
        on channel: any Channel, after: any ChannelHandler, role: WebSocketRole,
        configuration: WebSocketConfiguration, options: WebSocketChannelOptions,
        subprotocol: String?, compression: PerMessageDeflateParameters?,
        eventLoopHandler: (any WebSocketEventLoopHandler)?,
        makeEventLoopHandler: ((WebSocketOutbound) -> any WebSocketEventLoopHandler)? = nil
    ) throws -> (outbound: WebSocketOutbound, inbound: WebSocketInboundMessages?) {
        let machine = WebSocketConnectionStateMachine(
            role: role, configuration: configuration, deflate: compression, now: channel.eventLoop.now)
        let handler = WebSocketChannelHandler(
            machine: machine, eventLoopHandler: eventLoopHandler, clock: options.arrivalClock,
            maxOutboundBytes: options.maxOutboundBytes, readsOnlyWhenWritable: role == .server)
        let outbound = WebSocketOutbound(channel: channel, subprotocol: subprotocol, handler: handler)
        handler.outbound = outbound
        if let makeEventLoopHandler {
            handler.eventLoopHandler = makeEventLoopHandler(outbound)
        }
        var inbound: WebSocketInboundMessages?
        if handler.eventLoopHandler == nil {
            let producer = NIOAsyncSequenceProducer.makeSequence(
                elementType: WebSocketReceivedMessage.self,
                backPressureStrategy: NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(
                    lowWatermark: options.inboundLowWatermark, highWatermark: options.inboundHighWatermark),
                finishOnDeinit: false,
                delegate: InboundDelegate(handler: NIOLoopBound(handler, eventLoop: channel.eventLoop)))
            handler.source = producer.source
            inbound = WebSocketInboundMessages(producer.sequence)
        }
        try channel.syncOptions?.setOption(
            .writeBufferWaterMark,
            value: .init(low: options.outboundLowWatermark, high: options.outboundHighWatermark))
        try channel.pipeline.syncOperations.addHandler(handler, position: .after(after))
        return (outbound, inbound)
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        rearmTimer()
        if let outbound, let eventLoopHandler {
            eventLoopHandler.webSocketOpened(outbound)
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
        timer?.cancel()
        timer = nil
        timerDeadline = nil
        stoppedReading = true
        // The status is recorded before the sequence ends, so a consumer that
        // sees the end can read it.
        let outbound = self.outbound
        self.outbound = nil
        outbound?.recordClose(status)
        source?.finish()
        source = nil
        let waiters = writabilityWaiters
        writabilityWaiters = []
        waiters.forEach { $0.fail(WebSocketSendError.closing(.closed)) }
        if let outbound {
            eventLoopHandler?.webSocketClosed(outbound, status: status)
        }
        eventLoopHandler = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Transport errors (TLS, resets): nothing more can be said on this connection.
        context.close(promise: nil)
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !stoppedReading else { return }
        var bytes = unwrapInboundIn(data)
        if cumulation == nil {
            cumulation = bytes
        } else {
            cumulation!.writeBuffer(&bytes)
        }
        inReadBurst = true
        arrival = nil
        let now = context.eventLoop.now
        while !stoppedReading, let action = machine.read(from: &cumulation!, now: now) {
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
        inReadBurst = false
        if flushPending {
            flushPending = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    /// Reads only while the task consumer keeps up and, on the server, while
    /// the channel is writable: a client that sends without reading (pings,
    /// requests) cannot make the server queue answers without bound.
    func read(context: ChannelHandlerContext) {
        if readingPaused || readingHeld || !isWritableForReading(context) {
            readPending = true
        } else {
            context.read()
        }
    }

    /// The task consumer drained below the low watermark.
    func consumerWantsMore() {
        readingPaused = false
        resumeReadingIfHeldBack()
    }

    /// The event-loop handler cannot take more messages for now: no more
    /// socket reads (the bytes of the current read are still delivered)
    /// until ``resumeReading()``.
    func holdReading() {
        readingHeld = true
    }

    /// The event-loop handler takes messages again.
    func resumeReading() {
        readingHeld = false
        resumeReadingIfHeldBack()
    }

    private func resumeReadingIfHeldBack() {
        if readPending, !readingPaused, !readingHeld, let context, isWritableForReading(context) {
            readPending = false
            context.read()
        }
    }

    private func isWritableForReading(_ context: ChannelHandlerContext) -> Bool {
        !readsOnlyWhenWritable || context.channel.isWritable
    }

    /// The task stopped iterating: later messages are dropped, control frames still handled.
    func consumerTerminated() {
        source = nil
        consumerWantsMore()
    }

    private func perform(_ action: WebSocketConnectionAction, context: ChannelHandlerContext) {
        switch action {
        case .doNothing:
            break
        case .deliver(let message):
            deliver(message)
        case .write(let bytes):
            write(bytes, context: context)
        case .close(let close):
            if close.closeConnection {
                stoppedReading = true
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
        // Stamped here, as the bytes are read, not when a task or a handler's
        // backlog gets to the message: a consumer that stalled must not see
        // a steady peer as a burst.
        if let eventLoopHandler, let outbound {
            eventLoopHandler.webSocket(outbound, received: WebSocketReceivedMessage(message: message, receivedAt: arrivalOfThisRead()))
        } else if let source {
            switch source.yield(WebSocketReceivedMessage(message: message, receivedAt: arrivalOfThisRead())) {
            case .stopProducing: readingPaused = true
            case .produceMore, .dropped: break
            }
        }
    }

    /// When the bytes of the current `channelRead` arrived, read from the clock once per read.
    private func arrivalOfThisRead() -> ContinuousClock.Instant {
        let receivedAt = arrival ?? clock.now()
        arrival = receivedAt
        return receivedAt
    }

    // MARK: Outbound

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

    private func write(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(bytes), promise: nil)
        if inReadBurst {
            flushPending = true
        } else {
            context.flush()
        }
        // Below the high-water mark the backlog is small: ask for its size only above it.
        if !context.channel.isWritable, bufferedOutboundBytes > maxOutboundBytes {
            overflowed(context: context)
        }
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
        resumeReadingIfHeldBack()
    }

    // MARK: Timers

    /// Keeps one timer at the machine's next deadline. A timer that fires
    /// before the (moved) deadline is harmless: the machine answers
    /// `doNothing` and the timer is re-armed, so activity never reschedules.
    private func rearmTimer() {
        guard let context else { return }
        let deadline = machine.nextDeadline
        if let current = timerDeadline, let deadline, current <= deadline { return }
        if timerDeadline != nil, deadline == nil { return }
        timer?.cancel()
        timerDeadline = deadline
        guard let deadline else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            handler.value.timerFired()
        }
    }

    private func timerFired() {
        timer = nil
        timerDeadline = nil
        guard let context else { return }
        perform(machine.timerFired(now: context.eventLoop.now), context: context)
        rearmTimer()
    }
}

@available(*, unavailable)
extension WebSocketChannelHandler: Sendable {}
