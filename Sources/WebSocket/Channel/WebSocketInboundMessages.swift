public import NIOCore

/// The messages a WebSocket connection receives, as an `AsyncSequence` that ends when the connection closes
/// (``WebSocketConnection/closeStatus`` says how). Backpressured: a consumer too far behind stops socket reads
/// until it catches up. Only one task may iterate it.
public struct WebSocketInboundMessages: AsyncSequence, Sendable {
    /// Each element is one complete message.
    public typealias Element = WebSocketMessage

    typealias Producer = NIOAsyncSequenceProducer<
        WebSocketReceivedMessage, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, InboundDelegate
    >

    private let producer: Producer

    init(_ producer: Producer) {
        self.producer = producer
    }

    /// Creates the iterator (once).
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: producer.makeAsyncIterator())
    }

    /// Iterates the messages.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Producer.AsyncIterator

        /// The next message, or `nil` once the connection is closed.
        public mutating func next() async -> WebSocketMessage? {
            await base.next()?.message
        }

        /// The next message with the time it arrived (see
        /// ``WebSocketReceivedMessage/receivedAt``), or `nil` once the
        /// connection is closed. It advances the same iteration as ``next()``.
        public mutating func nextReceived() async -> WebSocketReceivedMessage? {
            await base.next()
        }
    }
}

@available(*, unavailable)
extension WebSocketInboundMessages.AsyncIterator: Sendable {}
