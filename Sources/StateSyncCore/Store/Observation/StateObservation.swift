/// The values of one observed slice of a store, as an `AsyncSequence`: the
/// current value first, then each new value that differs from the last one.
///
/// It yields nothing while unrelated parts of the state change. It ends when
/// the iterating task is cancelled, when the sequence is dropped, and when the
/// store goes away or shuts down.
///
/// **Slow consumers get the latest value**: values are buffered newest-first
/// with room for one, so a consumer that falls behind skips intermediate
/// values and next sees the most recent one (never the same value twice in a
/// row). Memory stays bounded however slow the consumer is.
///
/// Observation starts when the sequence is created (not when iteration
/// starts); iterate it from one task.
public struct StateObservation<Value: Equatable & Sendable>: AsyncSequence, Sendable {
    /// Never fails.
    public typealias Failure = Never

    private let stream: AsyncStream<Value>

    /// A sequence fed by the subscription `subscribe` makes, given where to
    /// send values and how to end.
    @usableFromInline
    init(subscribe: (_ receive: @escaping @Sendable (Value) -> Void, _ end: @escaping @Sendable ((any Error)?) -> Void) -> ObservationToken) {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let token = subscribe({ continuation.yield($0) }, { _ in continuation.finish() })
        continuation.onTermination = { _ in token.cancel() }
        self.stream = stream
    }

    /// An iterator over the values.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Yields distinct values in order; `nil` once the observation has ended.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Value>.Iterator
        var last: Value?

        /// The next value that differs from the previous one.
        public mutating func next() async -> Value? {
            while let value = await base.next() {
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }
    }
}
