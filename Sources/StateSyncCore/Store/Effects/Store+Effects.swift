import Synchronization

extension Store {
    /// The number of effects still running.
    public var runningEffectCount: Int {
        effectRunner.runningCount
    }

    /// Cancels the running effects named `id`; their later actions are dropped.
    public func cancelEffects(id: EffectID) {
        effectRunner.cancel(id: id)
    }

    /// Waits until no effect is running (returns at once when none is).
    /// Effects that keep starting new effects keep it waiting.
    public func effectsFinished() async {
        await effectRunner.finished()
    }

    /// Stops the store: cancels every effect and waits for their tasks to end,
    /// then ends every observation (their sequences finish). Later dispatches
    /// are rejected with code `shut_down`; actions queued before still run.
    public func shutdown() async {
        core.withLock { $0.isShutDown = true }
        await effectRunner.shutdown()
        perform { context in
            context.observersEnded = true
            for delivery in context.observers.finishAll() { delivery() }
        }
    }

    /// Starts `effect` on the store's ``EffectRunner`` (the caller holds the
    /// drain role); each action it sends is reduced before `send` returns. The
    /// effects hold the store weakly: a store that goes away cancels them.
    @usableFromInline
    func start(_ effect: Effect<Action>) {
        effectRunner.start(effect) { [weak self] action in
            _ = await self?.dispatch(action)
        }
    }
}
