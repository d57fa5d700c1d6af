import Synchronization

/// Runs ``Effect``s, each `.run` body in a tracked task, so that effects can be
/// cancelled by id, replaced, awaited and shut down. Their actions go to the
/// `send` given at ``start(_:send:)`` and are dropped once the effect is
/// cancelled; a runner that goes away cancels its effects.
///
/// ```swift
/// let runner = EffectRunner<BoardAction>()
/// runner.start(effect) { action in await store.dispatch(action) }
/// await runner.finished()      // no effect runs any more
/// await runner.shutdown()      // cancels the rest and waits for their tasks
/// ```
public final class EffectRunner<Action: Sendable>: Sendable {
    private let book = Mutex(EffectRegistry())

    /// A runner with no effect running.
    public init() {}

    deinit {
        let (tasks, waiters) = book.withLock { $0.removeAll() }
        for task in tasks { task.cancel() }
        for waiter in waiters { waiter.resume() }
    }

    /// The number of effects still running.
    public var runningCount: Int {
        book.withLock { $0.count }
    }

    /// Starts each `.run` body of `effect` in a new task (after cancelling
    /// those with its id, for `cancelInFlight`) and cancels those each
    /// `.cancel` names; nothing after ``shutdown()``. `send` gets a body's
    /// actions one at a time.
    public func start(_ effect: Effect<Action>, send: @escaping @Sendable (Action) async -> Void) {
        for operation in effect.operations {
            switch operation {
            case .cancel(let id):
                cancel(id: id)
            case .run(let id, let cancelInFlight, let body):
                run(body, id: id, cancelInFlight: cancelInFlight, send: send)
            }
        }
    }

    /// Cancels the running effects named `id`; their later sends are dropped.
    public func cancel(id: EffectID) {
        let tasks = book.withLock { $0.remove(id: id) }
        for task in tasks { task.cancel() }
    }

    /// Waits until no effect is running (returns at once when none is).
    /// Effects that keep starting new effects keep it waiting.
    public func finished() async {
        await withCheckedContinuation { waiter in
            let registered = book.withLock { $0.waitForIdle(waiter) }
            if !registered { waiter.resume() }
        }
    }

    /// Cancels every effect and waits for their tasks to end; later
    /// ``start(_:send:)`` calls start nothing.
    public func shutdown() async {
        let (tasks, waiters) = book.withLock { book in
            book.isShutDown = true
            return book.removeAll()
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs one effect body in a tracked task. The task holds the runner
    /// weakly: a runner that goes away cancels its effects.
    private func run(
        _ body: @escaping @Sendable (Effect<Action>.Send) async -> Void,
        id: EffectID?,
        cancelInFlight: Bool,
        send: @escaping @Sendable (Action) async -> Void
    ) {
        let (key, replaced) = book.withLock { book -> (UInt64?, [Task<Void, Never>]) in
            guard !book.isShutDown else { return (nil, []) }
            let replaced = cancelInFlight ? id.map { book.remove(id: $0) } ?? [] : []
            return (book.reserve(id: id), replaced)
        }
        for task in replaced { task.cancel() }
        guard let key else { return }
        let task = Task { [weak self] in
            await body { action in
                guard !Task.isCancelled else { return }
                await send(action)
            }
            self?.finish(key)
        }
        let attached = book.withLock { $0.attach(task, to: key) }
        if !attached { task.cancel() }
    }

    /// Forgets a finished effect and wakes ``finished()`` waiters when it was the last.
    private func finish(_ key: UInt64) {
        let waiters = book.withLock { $0.finish(key) }
        for waiter in waiters { waiter.resume() }
    }
}
