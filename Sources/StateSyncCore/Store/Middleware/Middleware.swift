/// Code that sees every action before the reducer and its outcome after it.
///
/// ``willReduce(_:state:meta:)`` runs before the reducer with the state the
/// action will apply to and the metadata it will get if accepted; throwing a
/// ``Rejection`` refuses the action (the reducer does not run, the revision is
/// not used). ``didReduce(_:)`` runs after an accepted action with the old and
/// new state, for middleware that ``observesStateChanges``.
/// ``didProcess(_:)`` runs after every action, accepted or rejected, with its
/// outcome and how long it took.
///
/// The ``ActionPipeline`` calls them, in a ``Store`` and in the server's
/// engine alike. In a store they run on the dispatching thread, outside the
/// store's lock, so they may read ``Store/state`` or dispatch (such a
/// dispatch is queued and reduced after the current one). They must not
/// block waiting for another dispatch to finish.
///
/// ## Cost
///
/// While at least one middleware observes state changes, the pipeline keeps
/// the state from before each action for ``StateChange/old``: the containers
/// the reducer then changes are copied (copy-on-write) instead of changed in
/// place, on every action. Middleware that only needs to know what happened
/// (a logger, a metrics counter) sets ``observesStateChanges`` to `false` and
/// uses ``didProcess(_:)``, which costs no copy.
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
/// Ready-made: ``Validate``, ``OnChange``, ``ActionLogger``; the ``Recorder`` is one too.
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
