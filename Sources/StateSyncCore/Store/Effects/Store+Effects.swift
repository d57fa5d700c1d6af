import Synchronization

extension Store {
    /// The number of effects still running.
    public var runningEffectCount: Int {
        core.withLock { $0.effects.count }
    }

    /// Cancels the running effects named `id`; their later actions are dropped.
    public func cancelEffects(id: EffectID) {
        let tasks = core.withLock { $0.effects.remove(id: id) }
        for task in tasks { task.cancel() }
    }

    /// Waits until no effect is running (returns at once when none is).
    /// Effects that keep starting new effects keep it waiting.
    public func effectsFinished() async {
        await withCheckedContinuation { waiter in
            let registered = core.withLock { $0.effects.waitForIdle(waiter) }
            if !registered { waiter.resume() }
        }
    }

    /// Stops the store: cancels every effect and waits for their tasks to end,
    /// then ends every observation (their sequences finish). Later dispatches
    /// are rejected with code `shut_down`; actions queued before still run.
    public func shutdown() async {
        let (tasks, waiters) = core.withLock { core in
            core.isShutDown = true
            return core.effects.removeAll()
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        for waiter in waiters { waiter.resume() }
        perform { context in
            context.observersEnded = true
            for delivery in context.observers.finishAll() { delivery() }
        }
    }

    /// Starts the operations of `effect`, in order (the caller holds the drain role).
    @usableFromInline
    func start(_ effect: Effect<Action>) {
        for operation in effect.operations {
            switch operation {
            case .cancel(let id):
                cancelEffects(id: id)
            case .run(let id, let cancelInFlight, let body):
                run(body, id: id, cancelInFlight: cancelInFlight)
            }
        }
    }

    /// Runs one effect body in a task the store tracks, cancels and awaits
    /// (``cancelEffects(id:)``, ``shutdown()``, ``effectsFinished()``). Each
    /// action it sends is reduced before `send` returns; after cancellation
    /// its actions are dropped. The task holds the store weakly: a store that
    /// goes away cancels its effects.
    private func run(_ body: @escaping @Sendable (Effect<Action>.Send) async -> Void, id: EffectID?, cancelInFlight: Bool) {
        let (key, replaced) = core.withLock { core -> (UInt64?, [Task<Void, Never>]) in
            guard !core.isShutDown else { return (nil, []) }
            let replaced = cancelInFlight ? id.map { core.effects.remove(id: $0) } ?? [] : []
            return (core.effects.reserve(id: id), replaced)
        }
        for task in replaced { task.cancel() }
        guard let key else { return }
        let task = Task { [weak self] in
            await body { [weak self] action in
                guard !Task.isCancelled, let self else { return }
                _ = await self.dispatch(action)
            }
            self?.finishEffect(key)
        }
        let attached = core.withLock { $0.effects.attach(task, to: key) }
        if !attached { task.cancel() }
    }

    /// Forgets a finished effect and wakes ``effectsFinished()`` waiters when it was the last.
    private func finishEffect(_ key: UInt64) {
        let waiters = core.withLock { $0.effects.finish(key) }
        for waiter in waiters { waiter.resume() }
    }
}
