public import Foundation

/// The part of a store shared by every thread, kept inside its mutex: the
/// state (its only copy, reduced in place) and revision, the queue of pending
/// work, and who drains it.
@usableFromInline
struct StoreCore<State: Sendable, Action: Sendable> {
    /// The state as of ``revision``: the store's only reference to it, so the
    /// reducer can change it in place without copying its collections.
    @usableFromInline var state: State
    /// The latest revision.
    @usableFromInline var revision: UInt64
    /// Whether some thread holds the drain role (is processing the queue).
    @usableFromInline var isDraining = false
    /// Set by ``Store/shutdown()``: new dispatches are rejected.
    @usableFromInline var isShutDown = false
    /// Work waiting for the drain role, in arrival order.
    @usableFromInline var jobs = JobQueue<StoreJob<State, Action>>()
}

/// One unit of work for the thread holding the drain role.
@usableFromInline
enum StoreJob<State: Sendable, Action: Sendable>: Sendable {
    /// Reduce an action; `reply` receives the outcome when an `async` caller waits.
    case dispatch(Action, clientID: String?, time: Date?, reply: CheckedContinuation<Result<Meta, Rejection>, Never>?)
    /// Change the observers (add, remove, end), in order with the dispatches.
    case observers(@Sendable (DrainContext<State>) -> Void)
}

/// A FIFO queue: an array with a moving head, compacted when half consumed.
@usableFromInline
struct JobQueue<Element> {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    /// An empty queue.
    @usableFromInline
    init() {}

    /// Whether nothing is waiting.
    var isEmpty: Bool { head == storage.count }

    /// Adds `element` at the back.
    @inlinable
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the front element, or `nil` when empty.
    @inlinable
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}

/// What only the thread holding the drain role touches: the next base revision
/// and the observers. `@unchecked Sendable`: the role changes hands inside the
/// store's `core` mutex (``StoreCore/isDraining``), so one thread uses it at a
/// time; `deinit` uses it once no drainer can exist.
@usableFromInline
final class DrainContext<State: Sendable>: @unchecked Sendable {
    /// The latest revision (the same as the published one).
    @usableFromInline var revision: UInt64
    /// Every observer.
    @usableFromInline var observers = ObservationRegistry<State>()
    /// Set once ``Store/shutdown()`` ended every observer: later ones end at once.
    var observersEnded = false

    /// A context starting at `revision`.
    init(revision: UInt64) {
        self.revision = revision
    }
}
