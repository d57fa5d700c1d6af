/// A collection whose elements are found by a key, as ``ForEachElement`` and
/// ``Store/observe(_:id:)`` need. Lookup is O(1) for dictionaries and O(n) for
/// arrays of `Identifiable`: prefer a dictionary when large.
public protocol KeyedCollection<Key, Value>: Equatable {
    /// The key that names an element.
    associatedtype Key: Hashable
    /// The element type.
    associatedtype Value

    /// The element with `key`, or `nil` when there is none.
    func element(withKey key: Key) -> Value?

    /// Runs `body` on the element with `key`, in place; returns `nil` when there is none.
    mutating func updateElement<Result, Failure: Error>(
        withKey key: Key, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result?

    /// The elements for several keys at once, in the order of `keys` (`nil`
    /// where absent). Arrays answer in one pass: O(n) rather than O(n × keys).
    func elements(withKeys keys: [Key]) -> [Value?]
}

extension KeyedCollection {
    /// Looks each key up with ``element(withKey:)``.
    @inlinable
    public func elements(withKeys keys: [Key]) -> [Value?] {
        keys.map { element(withKey: $0) }
    }
}
