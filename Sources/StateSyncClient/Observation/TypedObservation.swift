import StateSyncCore

/// The values at one path of a ``StateSyncClient``'s mirror, decoded as
/// `Value`: the current value first, then each change (see
/// ``StateSyncClient/observe(_:as:)``).
public struct TypedObservation<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    /// A value that does not decode ends the sequence with
    /// ``StateSyncClientError/decodingFailed(path:type:reason:)``.
    public typealias Failure = any Error

    private let base: PointerObservation
    private let path: String

    init(base: PointerObservation, path: String) {
        self.base = base
        self.path = path
    }

    /// An iterator over the decoded values.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), path: path)
    }

    /// Decodes each distinct JSON value.
    public struct Iterator: AsyncIteratorProtocol {
        var base: PointerObservation.Iterator
        let path: String

        /// The next value, decoded; `nil` once the observation has ended.
        public mutating func next() async throws -> Value? {
            guard let json = try await base.next() else { return nil }
            return try decode(json, as: Value.self, path: path)
        }
    }
}

/// `json` decoded as `type`, or ``StateSyncClientError/decodingFailed(path:type:reason:)``.
func decode<Value: Decodable>(_ json: JSONValue, as type: Value.Type, path: String) throws(StateSyncClientError) -> Value {
    do {
        return try JSONValueDecoder().decode(type, from: json)
    } catch {
        throw .decodingFailed(path: path.isEmpty ? "/" : path, type: "\(type)", reason: "\(error)")
    }
}
