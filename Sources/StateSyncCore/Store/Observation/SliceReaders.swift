/// How to read and compare one observed key path, built by the `@inlinable`
/// observation API so that it is specialized for the concrete types (the
/// store's generic code runs on slower runtime type metadata).
@usableFromInline
struct KeyPathReader<State: Sendable, Value: Sendable>: Sendable {
    @usableFromInline let path: any KeyPath<State, Value> & Sendable
    @usableFromInline let read: @Sendable (State) -> Value
    @usableFromInline let isEqual: @Sendable (Value, Value) -> Bool

    /// A reader of `path` comparing with `==`.
    @inlinable
    init(path: any KeyPath<State, Value> & Sendable) where Value: Equatable {
        self.path = path
        read = { $0[keyPath: path] }
        isEqual = { $0 == $1 }
    }
}

/// How to read one keyed collection of the state and compare it and its
/// elements, specialized like ``KeyPathReader``.
@usableFromInline
struct ElementReader<State: Sendable, Elements: KeyedCollection & SendableMetatype>: Sendable
where Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
    @usableFromInline let path: any KeyPath<State, Elements> & Sendable
    @usableFromInline let collection: @Sendable (State) -> Elements
    @usableFromInline let element: @Sendable (Elements, Elements.Key) -> Elements.Value?
    /// Looks up every key and updates the slot at the same position.
    @usableFromInline let updateAll: @Sendable (Elements, [Elements.Key], [ObservedSlot<Elements.Value?>], inout [Delivery]) -> Void
    /// Whether two collections are the same storage (bit-identical values):
    /// O(1), and a sound "unchanged"; `false` for equal but separately stored
    /// collections, which the element comparisons then settle.
    @usableFromInline let sameCollection: @Sendable (Elements, Elements) -> Bool
    @usableFromInline let sameElement: @Sendable (Elements.Value?, Elements.Value?) -> Bool

    /// A reader of the collection at `path`.
    @inlinable
    init(path: any KeyPath<State, Elements> & Sendable) {
        self.path = path
        collection = { $0[keyPath: path] }
        element = { $0.element(withKey: $1) }
        updateAll = { collection, keys, slots, deliveries in
            let values = collection.elements(withKeys: keys)
            for index in slots.indices {
                slots[index].update(values[index], into: &deliveries)
            }
        }
        sameCollection = { lhs, rhs in
            withUnsafeBytes(of: lhs) { lhs in withUnsafeBytes(of: rhs) { rhs in lhs.elementsEqual(rhs) } }
        }
        sameElement = { lhs, rhs in
            guard let lhs else { return rhs == nil }
            guard let rhs else { return false }
            return lhs == rhs
        }
    }
}
