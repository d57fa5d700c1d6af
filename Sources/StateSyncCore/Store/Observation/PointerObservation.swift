/// The values at one JSON Pointer of a store's state (`null` where nothing
/// exists), like a ``StateObservation``, except that it throws and ends when
/// the state fails to encode (a non-finite `Double`, a huge `UInt64`).
public struct PointerObservation: AsyncSequence, Sendable {
    /// The encoding error that ended the observation.
    public typealias Failure = any Error

    private let stream: AsyncThrowingStream<JSONValue, any Error>

    /// A sequence fed by the subscription `subscribe` makes.
    init(subscribe: (_ receive: @escaping @Sendable (JSONValue) -> Void, _ end: @escaping @Sendable ((any Error)?) -> Void) -> ObservationToken) {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: JSONValue.self, bufferingPolicy: .bufferingNewest(1))
        let token = subscribe({ continuation.yield($0) }, { continuation.finish(throwing: $0) })
        continuation.onTermination = { _ in token.cancel() }
        self.stream = stream
    }

    /// An iterator over the values.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Yields distinct values in order; `nil` once the observation has ended.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<JSONValue, any Error>.Iterator
        var last: JSONValue?

        /// The next value that differs from the previous one.
        public mutating func next() async throws -> JSONValue? {
            while let value = try await base.next() {
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }
    }
}
