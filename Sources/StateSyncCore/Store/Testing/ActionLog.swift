import Synchronization

/// The actions a ``TestStore`` has not consumed yet, accepted and rejected,
/// in the order the store processed them, with waiters for the next one.
final class ActionLog<State: Sendable, Action: Sendable>: Sendable {
    private struct Book {
        var entries: [LoggedAction<State, Action>] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let book = Mutex(Book())

    /// The middleware that feeds this log.
    var middleware: ActionLogFeeder<State, Action> {
        ActionLogFeeder(log: self)
    }

    /// Records an entry and wakes the waiters.
    func append(_ entry: LoggedAction<State, Action>) {
        let waiters = book.withLock { book in
            book.entries.append(entry)
            defer { book.waiters = [] }
            return book.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The entries not consumed yet.
    var pending: [LoggedAction<State, Action>] {
        book.withLock { $0.entries }
    }

    /// Removes and returns the entries up to and including the first one
    /// matching `isTarget`; removes nothing and returns `[]` when none does.
    func take(through isTarget: (LoggedAction<State, Action>) -> Bool) -> [LoggedAction<State, Action>] {
        book.withLock { book in
            guard let index = book.entries.firstIndex(where: isTarget) else { return [] }
            defer { book.entries.removeFirst(index + 1) }
            return Array(book.entries[...index])
        }
    }

    /// Removes and returns the oldest entry, waiting for one if needed;
    /// `nil` if the waiting task is cancelled first.
    func next() async -> LoggedAction<State, Action>? {
        while true {
            if let entry = popFirst() { return entry }
            if Task.isCancelled { return nil }
            await waitForAppend()
        }
    }

    private func popFirst() -> LoggedAction<State, Action>? {
        book.withLock { $0.entries.isEmpty ? nil : $0.entries.removeFirst() }
    }

    /// Suspends until the next append, or until the task is cancelled.
    private func waitForAppend() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                let ready = book.withLock { book in
                    if !book.entries.isEmpty || Task.isCancelled { return true }
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
