/// The observers of one key path of the state, sharing one read and one
/// comparison per action however many they are.
protocol StateObserverGroup<State>: AnyObject {
    associatedtype State
    /// Reads the group's slice of `state` and queues deliveries for what changed.
    func check(_ state: State, footprint: Footprint, into deliveries: inout [Delivery])
    /// Removes the observer `id` (with its element key, for keyed groups);
    /// returns whether the group is now empty.
    func remove(id: UInt64, key: AnyHashable?) -> Bool
    /// Ends every observer.
    func finishAll(into deliveries: inout [Delivery])
}

/// Observers of `state[keyPath: path]`.
final class KeyPathObservers<State: Sendable, Value: Equatable & Sendable>: StateObserverGroup {
    private let reader: KeyPathReader<State, Value>
    private let slot: ObservedSlot<Value>

    /// A group for the reader's key path, caching its value in `state`.
    init(reader: KeyPathReader<State, Value>, state: State) {
        self.reader = reader
        self.slot = ObservedSlot(value: reader.read(state), isEqual: reader.isEqual)
    }

    /// Adds an observer; returns the current value.
    func add(_ subscriber: Subscriber<Value>) -> Value {
        slot.add(subscriber)
    }

    /// One key-path read and one comparison with the cached value.
    func check(_ state: State, footprint: Footprint, into deliveries: inout [Delivery]) {
        slot.update(reader.read(state), into: &deliveries)
    }

    func remove(id: UInt64, key: AnyHashable?) -> Bool {
        slot.remove(id: id)
        return slot.isEmpty
    }

    func finishAll(into deliveries: inout [Delivery]) {
        slot.finishAll(into: &deliveries)
    }
}
