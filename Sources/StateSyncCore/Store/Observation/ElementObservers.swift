/// The observers of elements of one keyed collection of the state: the
/// hierarchical level that makes element observation cost follow the change.
///
/// Per action:
/// - a footprint naming elements of exactly this collection (from
///   ``ForEachElement``) visits only those elements' observers: O(changed);
/// - otherwise the collection is compared with its cached value, which Swift's
///   collections answer in O(1) when their storage is shared (unchanged), and
///   only when it differs are the observed elements looked up and compared.
///
/// The cached collection is dropped after a precise footprint: holding it
/// would make the reducer's next in-place change copy the whole collection.
/// The first imprecise check after that looks the observed elements up.
final class ElementObservers<State, Elements: KeyedCollection>: StateObserverGroup
where Elements.Value: Equatable & Sendable {
    /// One observed element: its typed key and its slot.
    private struct Observed {
        let key: Elements.Key
        let slot: ObservedSlot<Elements.Value?>
    }

    private let path: KeyPath<State, Elements>
    private let pathID: AnyKeyPath
    private var collection: Elements?
    private var observed: [AnyHashable: Observed] = [:]

    /// A group for the collection at `path`, caching it from `state`.
    init(path: KeyPath<State, Elements>, state: State) {
        self.path = path
        self.pathID = path
        self.collection = state[keyPath: path]
    }

    /// Adds an observer of the element `key`; returns its current value.
    func add(_ subscriber: Subscriber<Elements.Value?>, key: Elements.Key, state: State) -> Elements.Value? {
        let hashable = AnyHashable(key)
        if let existing = observed[hashable] {
            return existing.slot.add(subscriber)
        }
        let slot = ObservedSlot(value: (collection ?? state[keyPath: path]).element(withKey: key), isEqual: sameElement)
        observed[hashable] = Observed(key: key, slot: slot)
        return slot.add(subscriber)
    }

    func check(_ state: State, footprint: Footprint, into deliveries: inout [Delivery]) {
        let isPrecise = footprint.forEachChangedKey(in: pathID) { key in
            collection = nil
            guard let entry = observed[key] else { return }
            entry.slot.update(state[keyPath: path].element(withKey: entry.key), into: &deliveries)
        }
        if isPrecise { return }
        let current = state[keyPath: path]
        if let collection, collection == current { return }
        collection = current
        let values = current.elements(withKeys: observed.values.lazy.map(\.key))
        for entry in observed.values {
            entry.slot.update(values[entry.key], into: &deliveries)
        }
    }

    func remove(id: UInt64, key: AnyHashable?) -> Bool {
        guard let key, let entry = observed[key] else { return observed.isEmpty }
        entry.slot.remove(id: id)
        if entry.slot.isEmpty { observed[key] = nil }
        return observed.isEmpty
    }

    func finishAll(into deliveries: inout [Delivery]) {
        for entry in observed.values { entry.slot.finishAll(into: &deliveries) }
        observed = [:]
    }
}

/// Equality of two possibly absent values, without the generic `Optional ==`.
private func sameElement<Value: Equatable>(_ lhs: Value?, _ rhs: Value?) -> Bool {
    guard let lhs else { return rhs == nil }
    guard let rhs else { return false }
    return lhs == rhs
}
