public import OrderedCollections

/// A dictionary is keyed by its keys (O(1) lookup).
extension Dictionary: KeyedCollection where Value: Equatable {
    /// The value for `key`.
    @inlinable
    public func element(withKey key: Key) -> Value? { self[key] }

    /// Runs `body` on the value for `key` in place.
    @inlinable
    public mutating func updateElement<Result, Failure: Error>(
        withKey key: Key, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let index = index(forKey: key) else { return nil }
        return try body(&values[index])
    }
}

/// An ordered dictionary is keyed by its keys (O(1) lookup, order kept).
extension OrderedDictionary: KeyedCollection where Value: Equatable {
    /// The value for `key`.
    @inlinable
    public func element(withKey key: Key) -> Value? { self[key] }

    /// Runs `body` on the value for `key` in place.
    @inlinable
    public mutating func updateElement<Result, Failure: Error>(
        withKey key: Key, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let index = index(forKey: key) else { return nil }
        return try body(&values[index])
    }
}

/// An array of identifiable elements is keyed by `id` (O(n) lookup: a linear search).
extension Array: KeyedCollection where Element: Identifiable & Equatable {
    /// The element's `id`.
    public typealias Key = Element.ID
    /// The element itself.
    public typealias Value = Element

    /// The first element whose `id` is `key`.
    @inlinable
    public func element(withKey key: Element.ID) -> Element? {
        first { $0.id == key }
    }

    /// Runs `body` in place on the first element whose `id` is `key`.
    @inlinable
    public mutating func updateElement<Result, Failure: Error>(
        withKey key: Element.ID, _ body: (inout Element) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard let index = firstIndex(where: { $0.id == key }) else { return nil }
        return try body(&self[index])
    }

    /// One pass over the array to index the first element of each `id`, then one lookup per key.
    @inlinable
    public func elements(withKeys keys: [Element.ID]) -> [Element?] {
        var positions: [Element.ID: Int] = [:]
        positions.reserveCapacity(count)
        for (position, element) in enumerated() where positions[element.id] == nil {
            positions[element.id] = position
        }
        return keys.map { key in positions[key].map { self[$0] } }
    }
}
