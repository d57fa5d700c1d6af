/// The observers of elements of one keyed collection: a footprint naming
/// elements visits only theirs; else the collection costs O(1) if unchanged,
/// O(observed elements) if not. The cached collection is dropped after a
/// precise footprint, or the reducer's next change would copy it whole.
final class ElementObservers<State: Sendable, Elements: KeyedCollection & SendableMetatype>: StateObserverGroup
where Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
    /// One observed element: its typed key and its slot.
    private struct Observed {
        let key: Elements.Key
        let slot: ObservedSlot<Elements.Value?>
    }

    private let reader: ElementReader<State, Elements>
    private let pathID: AnyKeyPath
    private var collection: Elements?
    private var observed: [AnyHashable: Observed] = [:]
    /// The observed keys and their slots as two parallel arrays, for the
    /// look-up-everything path; rebuilt after observers come or go.
    private var ordered: (keys: [Elements.Key], slots: [ObservedSlot<Elements.Value?>])?

    /// A group for the reader's collection, caching it from `state`.
    init(reader: ElementReader<State, Elements>, state: State) {
        self.reader = reader
        self.pathID = reader.path
        self.collection = reader.collection(state)
    }

    /// Adds an observer of the element `key`; returns its current value.
    func add(_ subscriber: Subscriber<Elements.Value?>, key: Elements.Key, state: State) -> Elements.Value? {
        let hashable = AnyHashable(key)
        if let existing = observed[hashable] {
            return existing.slot.add(subscriber)
        }
        let slot = ObservedSlot(value: reader.element(collection ?? reader.collection(state), key), isEqual: reader.sameElement)
        observed[hashable] = Observed(key: key, slot: slot)
        ordered = nil
        return slot.add(subscriber)
    }

    func check(_ state: State, footprint: Footprint, into deliveries: inout [Delivery]) {
        let isPrecise = footprint.forEachChangedKey(in: pathID) { key in
            collection = nil
            guard let entry = observed[key] else { return }
            entry.slot.update(reader.element(reader.collection(state), entry.key), into: &deliveries)
        }
        if isPrecise { return }
        let current = reader.collection(state)
        if let collection, reader.sameCollection(collection, current) { return }
        collection = current
        let lists = ordered ?? (observed.values.map(\.key), observed.values.map(\.slot))
        ordered = lists
        reader.updateAll(current, lists.keys, lists.slots, &deliveries)
    }

    func remove(id: UInt64, key: AnyHashable?) -> Bool {
        guard let key, let entry = observed[key] else { return observed.isEmpty }
        entry.slot.remove(id: id)
        if entry.slot.isEmpty {
            observed[key] = nil
            ordered = nil
        }
        return observed.isEmpty
    }

    func finishAll(into deliveries: inout [Delivery]) {
        for entry in observed.values { entry.slot.finishAll(into: &deliveries) }
        observed = [:]
        ordered = nil
    }
}
