/// Code that sees every action before the reducer and its outcome after it.
///
/// ``willReduce(_:state:meta:)`` may refuse an action by throwing a
/// ``Rejection``; ``didReduce(_:)`` gets the old and new state of an accepted
/// one; ``didProcess(_:)`` every outcome and its duration. In a ``Store`` they
/// run on the dispatching thread outside its lock: they may read the state or
/// dispatch (queued), never block on another dispatch. Keeping the old state
/// copies what the reducer changes: a logger sets ``observesStateChanges`` to
/// `false` and uses ``didProcess(_:)``.
///
/// ```swift
/// struct AcceptedCounter: Middleware {
///     typealias State = Board
///     typealias Action = BoardAction
///     let counter: Counter
///     var observesStateChanges: Bool { false }
///     func didProcess(_ report: ActionReport<BoardAction>) {
///         if case .accepted = report.outcome { counter.increment() }
///     }
/// }
/// ```
///
/// Ready-made: ``Validate``, ``OnChange``, ``ActionLogger``, ``Recorder``.
public protocol Middleware<State, Action>: Sendable {
    /// The store's state.
    associatedtype State: Sendable
    /// The store's actions.
    associatedtype Action: Sendable

    /// Whether ``didReduce(_:)`` is called for this middleware. Read once,
    /// when the pipeline is made. Default: `true`. Set it to `false` unless
    /// you need the old and new state: see "Cost" above.
    var observesStateChanges: Bool { get }

    /// Sees `action` before the reducer; throw to reject it. Default: accepts.
    func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection)

    /// Sees an accepted action's change, when ``observesStateChanges``.
    /// Default: does nothing.
    func didReduce(_ change: StateChange<State, Action>)

    /// Sees the outcome of every action, after ``didReduce(_:)`` of every
    /// middleware for an accepted one. Default: does nothing.
    func didProcess(_ report: ActionReport<Action>)
}

extension Middleware {
    /// Observes state changes.
    public var observesStateChanges: Bool { true }

    /// Accepts every action.
    public func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection) {}

    /// Ignores changes.
    public func didReduce(_ change: StateChange<State, Action>) {}

    /// Ignores outcomes.
    public func didProcess(_ report: ActionReport<Action>) {}
}
