import NIOCore

/// Delivers a connection's messages to a task through a backpressured
/// `AsyncSequence` (``WebSocketInboundMessages``): past its high watermark
/// the connection stops reading until the consumer drains to the low one.
struct TaskDelivery: WebSocketDelivery {
    typealias Source = WebSocketInboundMessages.Producer.Source

    /// `nil` once the connection closed or the task stopped iterating.
    private var source: Source?

    /// Delivers into `source`; `nil` until the connection's handler is made.
    init(source: Source? = nil) {
        self.source = source
    }

    func connectionOpened(_ outbound: WebSocketOutbound) {}

    func deliver(_ message: WebSocketReceivedMessage, outbound: WebSocketOutbound) -> WebSocketDeliveryOutcome {
        switch source?.yield(message) {
        case .stopProducing: .receiverBehind
        case .produceMore, .dropped, nil: .accepted
        }
    }

    /// The status is recorded before this ends the sequence, so a consumer
    /// that sees the end can read it.
    mutating func connectionClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus) {
        source?.finish()
        source = nil
    }

    /// The task stopped iterating: later messages are dropped.
    mutating func consumerTerminated() {
        source = nil
    }
}

extension WebSocketChannelHandler where Delivery == TaskDelivery {
    /// Installs a connection's handler after `after` (the HTTP stage that is
    /// about to leave) and returns the connection as a task sees it: the
    /// sequence of its messages and its outbound writer.
    static func install(
        on channel: any Channel, after: any ChannelHandler, role: WebSocketRole,
        configuration: WebSocketConfiguration, options: WebSocketChannelOptions,
        subprotocol: String?, compression: PerMessageDeflateParameters?, registry: ConnectionRegistry? = nil
    ) throws -> WebSocketConnection {
        let (handler, outbound) = make(
            on: channel, role: role, configuration: configuration, options: options, subprotocol: subprotocol,
            compression: compression, registry: registry, delivery: TaskDelivery())
        let producer = NIOAsyncSequenceProducer.makeSequence(
            elementType: WebSocketReceivedMessage.self,
            backPressureStrategy: NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark(
                lowWatermark: options.inboundLowWatermark, highWatermark: options.inboundHighWatermark),
            finishOnDeinit: false,
            delegate: InboundDelegate(handler: NIOLoopBound(handler, eventLoop: channel.eventLoop)))
        handler.delivery = TaskDelivery(source: producer.source)
        try handler.add(to: channel, after: after, options: options)
        return WebSocketConnection(inbound: WebSocketInboundMessages(producer.sequence), outbound: outbound)
    }

    /// The consumer drained below the low watermark.
    func consumerWantsMore() {
        receiverCaughtUp()
    }

    /// The task stopped iterating: later messages are dropped, control frames still handled.
    func consumerTerminated() {
        delivery.consumerTerminated()
        receiverCaughtUp()
    }
}

/// Tells the channel handler, on its event loop, when the consumer wants more
/// messages or has gone away.
final class InboundDelegate: NIOAsyncSequenceProducerDelegate {
    private let handler: NIOLoopBound<WebSocketChannelHandler<TaskDelivery>>

    init(handler: NIOLoopBound<WebSocketChannelHandler<TaskDelivery>>) {
        self.handler = handler
    }

    func produceMore() {
        let handler = self.handler
        handler.eventLoop.execute { handler.value.consumerWantsMore() }
    }

    func didTerminate() {
        let handler = self.handler
        handler.eventLoop.execute { handler.value.consumerTerminated() }
    }
}
