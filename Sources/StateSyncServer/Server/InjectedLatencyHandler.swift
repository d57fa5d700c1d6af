import DequeModule
import NIOCore

/// A development aid (`--inject-latency MS`): delays every outbound event of
/// one connection, in order, so a local server behaves like a distant one.
/// What it holds escapes the outbound limits, hence development only.
final class InjectedLatencyHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum Event {
        case write(NIOAny, EventLoopPromise<Void>?)
        case flush
        case close(CloseMode, EventLoopPromise<Void>?)
    }

    private let latency: TimeAmount
    private var held: Deque<(due: NIODeadline, event: Event)> = []
    private var timer: Scheduled<Void>?

    /// A handler delaying each outbound event by `latency`.
    init(latency: TimeAmount) {
        self.latency = latency
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        hold(.write(data, promise), context: context)
    }

    func flush(context: ChannelHandlerContext) {
        hold(.flush, context: context)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        hold(.close(mode, promise), context: context)
    }

    /// Passes on whatever is still held (a closed channel fails the writes' promises).
    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        while let next = held.popFirst() { perform(next.event, context: context) }
    }

    private func hold(_ event: Event, context: ChannelHandlerContext) {
        held.append((context.eventLoop.now + latency, event))
        scheduleNext(context: context)
    }

    /// One timer at a time, for the oldest event: events leave in the order they came.
    private func scheduleNext(context: ChannelHandlerContext) {
        guard timer == nil, let first = held.first else { return }
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: first.due) { [self] in
            timer = nil
            let now = context.eventLoop.now
            while let next = held.first, next.due <= now {
                held.removeFirst()
                perform(next.event, context: context)
            }
            scheduleNext(context: context)
        }
    }

    private func perform(_ event: Event, context: ChannelHandlerContext) {
        switch event {
        case .write(let data, let promise): context.write(data, promise: promise)
        case .flush: context.flush()
        case .close(let mode, let promise): context.close(mode: mode, promise: promise)
        }
    }
}

@available(*, unavailable)
extension InjectedLatencyHandler: Sendable {}
