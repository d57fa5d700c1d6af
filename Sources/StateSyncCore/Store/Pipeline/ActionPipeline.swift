/// What happens to one action, for every owner of a state (a ``Store``, the
/// server's engine): middleware before the reducer (which may reject), the
/// reducer, middleware after, and the effect the action asks for.
///
/// ```swift
/// let pipeline = ActionPipeline(reducer: BoardReducer(), middleware: [ActionLogger { print($0) }], effects: Board.effects)
/// switch pipeline.process(command, state: &state, meta: meta) {
/// case .accepted(let footprint, let effect):
///     publish(footprint)
///     runner.start(effect) { followUp in await engine.post(followUp) }
/// case .rejected(let rejection):
///     reply(rejection)
/// }
/// ```
///
/// An owner changing its state from one thread at a time calls
/// ``process(_:state:meta:)``. The ``Store`` calls its stages itself, running
/// middleware outside its lock: ``startClock()``,
/// ``willReduce(_:state:meta:)``, ``reduce(_:into:meta:)``, then
/// ``didAccept(_:old:new:meta:duration:)`` and ``effect(after:state:meta:)``,
/// or ``didReject(_:meta:rejection:duration:)`` when either of the first two
/// throws; it keeps the old state only when ``keepsOldState`` says so, and
/// changes nothing between the stages.
public struct ActionPipeline<State: Sendable, Action: Sendable>: Sendable {
    /// The reducer.
    public let reducer: any Reducer<State, Action>
    /// The middleware, in the order they run.
    public let middleware: [any Middleware<State, Action>]
    /// The effect handler; `nil` asks for no effects.
    public let effects: Effects<State, Action>?
    /// The middleware that observe state changes (get ``Middleware/didReduce(_:)``).
    @usableFromInline let changeObservers: [any Middleware<State, Action>]

    /// A pipeline of `reducer`, `middleware` (run in order; default none) and
    /// `effects` (default `nil`: no effects).
    public init(
        reducer: some Reducer<State, Action>,
        middleware: [any Middleware<State, Action>] = [],
        effects: Effects<State, Action>? = nil
    ) {
        self.reducer = reducer
        self.middleware = middleware
        self.effects = effects
        changeObservers = middleware.filter(\.observesStateChanges)
    }

    /// Whether the state from before the reducer must be kept for
    /// ``didAccept(_:old:new:meta:duration:)``: when some middleware
    /// observes state changes.
    @inlinable
    public var keepsOldState: Bool {
        !changeObservers.isEmpty
    }

    /// Runs `action` through the whole pipeline on `state`, changing it in
    /// place when accepted (a rejected action leaves it unchanged). The effect
    /// is returned, not started: the caller runs it.
    @inlinable
    public func process(_ action: Action, state: inout State, meta: Meta) -> ActionPipelineOutcome<Action> {
        let started = startClock()
        let old = keepsOldState ? state : nil
        let footprint: Footprint
        do throws(Rejection) {
            try willReduce(action, state: state, meta: meta)
            footprint = try reduce(action, into: &state, meta: meta)
        } catch {
            didReject(action, meta: meta, rejection: error, duration: elapsed(since: started))
            return .rejected(error)
        }
        didAccept(action, old: old, new: state, meta: meta, duration: elapsed(since: started))
        return .accepted(footprint, effect: effect(after: action, state: state, meta: meta))
    }

    /// Stage 1: the start of ``ActionReport/duration``, or `nil` (the clock
    /// is not read) when there is no middleware to report to.
    @inlinable
    public func startClock() -> ContinuousClock.Instant? {
        middleware.isEmpty ? nil : ContinuousClock.now
    }

    /// The time since `start`; zero when `start` is `nil`.
    @inlinable
    public func elapsed(since start: ContinuousClock.Instant?) -> Duration {
        guard let start else { return .zero }
        return ContinuousClock.now - start
    }

    /// Stage 2: every middleware's ``Middleware/willReduce(_:state:meta:)``,
    /// in order; the first to throw rejects the action.
    @inlinable
    public func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection) {
        for middleware in middleware {
            try middleware.willReduce(action, state: state, meta: meta)
        }
    }

    /// Stage 3: the reducer, changing `state` in place; when it throws,
    /// `state` is unchanged (the ``Reducer`` contract).
    @inlinable
    public func reduce(_ action: Action, into state: inout State, meta: Meta) throws(Rejection) -> Footprint {
        try reducer.reduce(into: &state, action: action, meta: meta)
    }

    /// Stage 4, accepted: ``Middleware/didReduce(_:)`` of the middleware that
    /// observe state changes (with `old`, which must be given when
    /// ``keepsOldState``), then ``Middleware/didProcess(_:)`` of every one.
    @inlinable
    public func didAccept(_ action: Action, old: State?, new: State, meta: Meta, duration: Duration) {
        guard !middleware.isEmpty else { return }
        if let old {
            let change = StateChange(old: old, new: new, action: action, meta: meta)
            for observer in changeObservers { observer.didReduce(change) }
        }
        report(ActionReport(action: action, meta: meta, outcome: .accepted, duration: duration))
    }

    /// Stage 4, rejected: ``Middleware/didProcess(_:)`` of every middleware
    /// with the rejection.
    @inlinable
    public func didReject(_ action: Action, meta: Meta, rejection: Rejection, duration: Duration) {
        guard !middleware.isEmpty else { return }
        report(ActionReport(action: action, meta: meta, outcome: .rejected(rejection), duration: duration))
    }

    /// Stage 5, accepted only: the effect the handler asks for, given the
    /// new state; ``Effect/none`` without a handler. It is not started.
    @inlinable
    public func effect(after action: Action, state: State, meta: Meta) -> Effect<Action> {
        effects?.handler(action, state, meta) ?? .none
    }

    /// Hands `report` to every middleware, in order.
    @usableFromInline
    func report(_ report: ActionReport<Action>) {
        for middleware in middleware { middleware.didProcess(report) }
    }
}
