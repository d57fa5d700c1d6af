import Synchronization

/// Work to run on the dispatching thread once the store's lock is released:
/// a batch of observer callbacks.
@usableFromInline
typealias Delivery = @Sendable () -> Void

/// One observer: its callback, an optional end callback, and a cancelled flag
/// checked before every delivery (so a cancelled observer is not called again,
/// even by a delivery that was already collected).
final class Subscriber<Value: Sendable>: Sendable {
    /// Unique within its store.
    let id: UInt64
    private let receive: @Sendable (Value) -> Void
    private let end: (@Sendable ((any Error)?) -> Void)?
    private let isCancelled = Atomic<Bool>(false)

    /// An observer calling `receive` for each value and `end` when no value
    /// will follow (with the error that ended it, if any).
    init(id: UInt64, receive: @escaping @Sendable (Value) -> Void, end: (@Sendable ((any Error)?) -> Void)?) {
        self.id = id
        self.receive = receive
        self.end = end
    }

    /// Calls the callback unless cancelled.
    func deliver(_ value: Value) {
        guard !isCancelled.load(ordering: .acquiring) else { return }
        receive(value)
    }

    /// Stops all further deliveries.
    func cancel() {
        isCancelled.store(true, ordering: .releasing)
    }

    /// Tells the observer that no value will follow: the store is gone or shut
    /// down (`error` is `nil`), or its values can no longer be computed.
    func finish(error: (any Error)?) {
        guard !isCancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        end?(error)
    }
}

/// A cached value and the observers of it: the unit that is compared once per
/// action however many observers share it.
@usableFromInline
final class ObservedSlot<Value: Equatable & Sendable> {
    /// The value as of the latest revision.
    private(set) var value: Value
    private var subscribers: [Subscriber<Value>] = []
    private let isEqual: (Value, Value) -> Bool

    /// A slot holding `value`, comparing values with `isEqual` (default `==`;
    /// element slots pass a comparison of optionals that avoids the generic
    /// `Optional ==`, which builds tuple metadata on every call).
    init(value: Value, isEqual: @escaping (Value, Value) -> Bool = { $0 == $1 }) {
        self.value = value
        self.isEqual = isEqual
    }

    /// Whether nobody observes this slot any more.
    var isEmpty: Bool { subscribers.isEmpty }

    /// Stores `newValue`; when it differs from the cached value, queues its
    /// delivery to every observer (the observer list is copied, so observers
    /// added or removed meanwhile do not disturb the delivery).
    @usableFromInline
    func update(_ newValue: Value, into deliveries: inout [Delivery]) {
        guard !isEqual(newValue, value) else { return }
        value = newValue
        guard !subscribers.isEmpty else { return }
        let targets = subscribers
        deliveries.append {
            for subscriber in targets { subscriber.deliver(newValue) }
        }
    }

    /// Adds an observer; returns the current value for its first delivery.
    func add(_ subscriber: Subscriber<Value>) -> Value {
        subscribers.append(subscriber)
        return value
    }

    /// Removes the observer `id`.
    func remove(id: UInt64) {
        subscribers.removeAll { $0.id == id }
    }

    /// Ends every observer (with `error`, if any) and forgets them.
    func finishAll(error: (any Error)? = nil, into deliveries: inout [Delivery]) {
        let targets = subscribers
        subscribers = []
        deliveries.append {
            for subscriber in targets { subscriber.finish(error: error) }
        }
    }
}
