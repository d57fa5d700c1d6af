import Synchronization

/// The accepted changes a ``TestStore`` has not consumed yet, in revision
/// order, with waiters for the next one.
final class ChangeLog<State: Sendable, Action: Sendable>: Sendable {
    private struct Book {
        var changes: [StateChange<State, Action>] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let book = Mutex(Book())

    /// The middleware that feeds this log.
    var middleware: OnChange<State, Action> {
        OnChange { [self] change in append(change) }
    }

    /// Records a change and wakes the waiters.
    func append(_ change: StateChange<State, Action>) {
        let waiters = book.withLock { book in
            book.changes.append(change)
            defer { book.waiters = [] }
            return book.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The actions not consumed yet.
    var pendingActions: [Action] {
        book.withLock { $0.changes.map(\.action) }
    }

    /// Removes and returns the changes up to and including `revision`.
    func take(through revision: UInt64) -> [StateChange<State, Action>] {
        book.withLock { book in
            let count = book.changes.prefix { $0.meta.revision <= revision }.count
            defer { book.changes.removeFirst(count) }
            return Array(book.changes.prefix(count))
        }
    }

    /// Removes and returns the oldest change, waiting for one if needed;
    /// `nil` if the waiting task is cancelled first.
    func next() async -> StateChange<State, Action>? {
        while true {
            if let change = popFirst() { return change }
            if Task.isCancelled { return nil }
            await waitForAppend()
        }
    }

    private func popFirst() -> StateChange<State, Action>? {
        book.withLock { $0.changes.isEmpty ? nil : $0.changes.removeFirst() }
    }

    /// Suspends until the next append, or until the task is cancelled.
    private func waitForAppend() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                let ready = book.withLock { book in
                    if !book.changes.isEmpty || Task.isCancelled { return true }
                    book.waiters.append(waiter)
                    return false
                }
                if ready { waiter.resume() }
            }
        } onCancel: {
            let waiters = book.withLock { book in
                defer { book.waiters = [] }
                return book.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
