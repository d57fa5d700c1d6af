public import Foundation
public import Synchronization

extension Store {
    /// Dispatches `action`, reduced at once when the store is idle, else
    /// ``DispatchStatus/queued`` and reduced before the running dispatch
    /// returns. `time` overrides the clock, to replay a journal.
    @inlinable @discardableResult
    public func send(_ action: Action, clientID: String? = nil, time: Date? = nil) -> DispatchStatus {
        switch claim(or: .dispatch(action, clientID: clientID, time: time, reply: nil)) {
        case .queued:
            return .queued
        case .shutDown:
            return .rejected(Self.shutDownRejection)
        case .claimed:
            let result = process(action, clientID: clientID, time: time)
            drain()
            return DispatchStatus(result)
        }
    }

    /// Dispatches `action` and waits for its outcome. It suspends only when
    /// queued behind another dispatch; a queued action is reduced even if the
    /// waiting task is cancelled.
    ///
    /// ```swift
    /// switch await store.dispatch(.removeTodo(id: "t9")) {
    /// case .success(let meta): print("now at rev \(meta.revision)")
    /// case .failure(let rejection): print(rejection)      // not_found: no todo with id t9
    /// }
    /// ```
    @inlinable
    public func dispatch(_ action: Action, clientID: String? = nil, time: Date? = nil) async -> Result<Meta, Rejection> {
        await withCheckedContinuation { reply in
            switch claim(or: .dispatch(action, clientID: clientID, time: time, reply: reply)) {
            case .queued:
                return
            case .shutDown:
                reply.resume(returning: .failure(Self.shutDownRejection))
            case .claimed:
                reply.resume(returning: process(action, clientID: clientID, time: time))
                drain()
            }
        }
    }

    /// The rejection of dispatches after ``shutdown()``.
    @usableFromInline
    static var shutDownRejection: Rejection {
        Rejection(code: "shut_down", message: "the store has been shut down")
    }

    /// Whether the caller got the drain role or queued its job.
    @usableFromInline
    enum Claim {
        case claimed, queued, shutDown
    }

    /// Takes the drain role when free; otherwise queues `job` for the holder.
    /// A dispatch after shutdown is neither.
    @inlinable
    func claim(or job: StoreJob<State, Action>) -> Claim {
        core.withLock { core in
            if case .dispatch = job, core.isShutDown { return .shutDown }
            if core.isDraining {
                core.jobs.append(job)
                return .queued
            }
            core.isDraining = true
            return .claimed
        }
    }

    /// Runs `job` now when the store is idle, or queues it behind the work in progress.
    func perform(_ job: @escaping @Sendable (DrainContext<State>) -> Void) {
        guard case .claimed = claim(or: .observers(job)) else { return }
        job(drainContext)
        drain()
    }

    /// Processes queued jobs until none is left, then releases the drain role.
    @inlinable
    func drain() {
        while true {
            let next: StoreJob<State, Action>? = core.withLock { core in
                if let job = core.jobs.popFirst() { return job }
                core.isDraining = false
                return nil
            }
            guard let next else { return }
            switch next {
            case .dispatch(let action, let clientID, let time, let reply):
                let result = process(action, clientID: clientID, time: time)
                reply?.resume(returning: result)
            case .observers(let job):
                job(drainContext)
            }
        }
    }

    /// Reduces one action (the caller holds the drain role) through the
    /// pipeline's stages: middleware before, reducer in place under the
    /// lock, middleware after, observers, effects.
    @inlinable
    func process(_ action: Action, clientID: String?, time: Date?) -> Result<Meta, Rejection> {
        // `pipeline` is used in place (not copied into a local), which
        // would retain and release each of its references per dispatch.
        let context = drainContext
        let meta = Meta(revision: context.revision + 1, clientID: clientID, time: time ?? configuration.clock())
        let keepsOldState = pipeline.keepsOldState
        let started = pipeline.startClock()
        let reduced: (footprint: Footprint, new: State, old: State?)
        do throws(Rejection) {
            if !pipeline.middleware.isEmpty {
                try pipeline.willReduce(action, state: state, meta: meta)
            }
            reduced = try core.withLock { (core) throws(Rejection) in
                let old = keepsOldState ? core.state : nil
                let footprint = try pipeline.reduce(action, into: &core.state, meta: meta)
                core.revision = meta.revision
                return (footprint, core.state, old)
            }
        } catch {
            pipeline.didReject(action, meta: meta, rejection: error, duration: pipeline.elapsed(since: started))
            return .failure(error)
        }
        let duration = pipeline.elapsed(since: started)
        context.revision = meta.revision
        var deliveries: [Delivery] = []
        context.observers.collectChanges(in: reduced.new, footprint: reduced.footprint, into: &deliveries)
        pipeline.didAccept(action, old: reduced.old, new: reduced.new, meta: meta, duration: duration)
        for delivery in deliveries { delivery() }
        if pipeline.effects != nil {
            start(pipeline.effect(after: action, state: reduced.new, meta: meta))
        }
        return .success(meta)
    }
}
