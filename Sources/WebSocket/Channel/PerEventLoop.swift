import NIOCore
import Synchronization

/// One instance of a loop-confined helper per event loop (``EventLoopTimers``,
/// ``EventLoopWriteBatch``), made on first use; a loop that went away leaves
/// its instance to be dropped at the next creation.
final class PerEventLoop<Value: AnyObject & Sendable>: Sendable {
    private struct Entry {
        weak var eventLoop: (any EventLoop)?
        let value: Value
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])
    private let make: @Sendable (any EventLoop) -> Value

    /// A registry whose instances `make` creates for their loop.
    init(_ make: @escaping @Sendable (any EventLoop) -> Value) {
        self.make = make
    }

    /// The instance of `eventLoop` (made on first use).
    func on(_ eventLoop: any EventLoop) -> Value {
        entries.withLock { entries in
            let key = ObjectIdentifier(eventLoop)
            if let entry = entries[key], entry.eventLoop === eventLoop { return entry.value }
            // A loop that went away (a test's, a closed client's group) leaves its entry behind: drop them now.
            entries = entries.filter { $0.value.eventLoop != nil }
            let value = make(eventLoop)
            entries[key] = Entry(eventLoop: eventLoop, value: value)
            return value
        }
    }
}
