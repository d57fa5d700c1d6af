/// Every observer of a store, grouped so that an action costs one comparison
/// per observed key path, not per observer. Only the thread holding the drain
/// role touches it, so it needs no lock of its own.
@usableFromInline
struct ObservationRegistry<State: Sendable> {
    private var keyPathGroups: [AnyKeyPath: any StateObserverGroup<State>] = [:]
    private var elementGroups: [AnyKeyPath: any StateObserverGroup<State>] = [:]
    /// The JSON Pointer observers, created with the first of them.
    private var pointerObservers: PointerObservers<State>?

    /// Adds an observer of the reader's key path; returns the value to deliver first.
    mutating func add<Value: Equatable & Sendable>(
        _ subscriber: Subscriber<Value>, reader: KeyPathReader<State, Value>, state: State
    ) -> Value {
        if let group = keyPathGroups[reader.path] as? KeyPathObservers<State, Value> {
            return group.add(subscriber)
        }
        let group = KeyPathObservers(reader: reader, state: state)
        keyPathGroups[reader.path] = group
        return group.add(subscriber)
    }

    /// Adds an observer of the element `key` of the reader's collection; returns its current value.
    mutating func add<Elements: KeyedCollection>(
        _ subscriber: Subscriber<Elements.Value?>, reader: ElementReader<State, Elements>, key: Elements.Key, state: State
    ) -> Elements.Value? where Elements: SendableMetatype, Elements.Key: Sendable, Elements.Value: Equatable & Sendable {
        if let group = elementGroups[reader.path] as? ElementObservers<State, Elements> {
            return group.add(subscriber, key: key, state: state)
        }
        let group = ElementObservers(reader: reader, state: state)
        elementGroups[reader.path] = group
        return group.add(subscriber, key: key, state: state)
    }

    /// Removes the key-path observer `id` of `path`, and its group when it was the last.
    mutating func removeObserver(id: UInt64, path: AnyKeyPath) {
        if keyPathGroups[path]?.remove(id: id, key: nil) == true {
            keyPathGroups[path] = nil
        }
    }

    /// Removes the element observer `id` of `key` in the collection at `path`.
    mutating func removeObserver(id: UInt64, collection path: AnyKeyPath, key: AnyHashable) {
        if elementGroups[path]?.remove(id: id, key: key) == true {
            elementGroups[path] = nil
        }
    }

    /// Adds an observer of `pointer`; `encode` turns the state into JSON (one
    /// encoding per action is shared by all pointer observers). Returns the
    /// value to deliver first.
    mutating func add(
        _ subscriber: Subscriber<JSONValue>, pointer: JSONPointer, state: State,
        encode: @escaping (State) throws -> JSONValue
    ) throws -> JSONValue {
        let observers = pointerObservers ?? PointerObservers(encode: encode)
        pointerObservers = observers
        return try observers.add(subscriber, pointer: pointer, state: state)
    }

    /// Removes the pointer observer `id` of `pointer`; the last one removed
    /// stops the per-action encoding.
    mutating func removeObserver(id: UInt64, pointer: JSONPointer) {
        pointerObservers?.remove(id: id, pointer: pointer)
        if pointerObservers?.isEmpty == true { pointerObservers = nil }
    }

    /// Compares every group the footprint may concern with the new state and
    /// queues the deliveries for the groups that changed.
    @usableFromInline
    mutating func collectChanges(in state: State, footprint: Footprint, into deliveries: inout [Delivery]) {
        guard !footprint.isNothing else { return }
        for group in keyPathGroups.values {
            group.check(state, footprint: footprint, into: &deliveries)
        }
        for group in elementGroups.values {
            group.check(state, footprint: footprint, into: &deliveries)
        }
        if let pointerObservers {
            pointerObservers.check(state, into: &deliveries)
            if pointerObservers.isEmpty { self.pointerObservers = nil }
        }
    }

    /// Ends every observer (the store is going away) and forgets them all.
    mutating func finishAll() -> [Delivery] {
        var deliveries: [Delivery] = []
        for group in keyPathGroups.values { group.finishAll(into: &deliveries) }
        for group in elementGroups.values { group.finishAll(into: &deliveries) }
        pointerObservers?.finishAll(into: &deliveries)
        keyPathGroups = [:]
        elementGroups = [:]
        pointerObservers = nil
        return deliveries
    }
}
