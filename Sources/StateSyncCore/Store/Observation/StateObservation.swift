/// The values of one observed slice of a store, as an `AsyncSequence`: the
/// current value, then each new distinct one.
///
/// A slow consumer gets the latest value (a buffer of one), so memory stays
/// bounded. It observes from its creation; iterate it from one task. It ends on
/// cancellation, when dropped, or when the store goes away or shuts down.
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
