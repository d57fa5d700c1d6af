/// Code that sees every action before the reducer and every change after it.
///
/// ``willReduce(_:state:meta:)`` runs before the reducer with the state the
/// action will apply to and the metadata it will get if accepted; throwing a
/// ``Rejection`` refuses the action (the reducer does not run, the revision is
/// not used). ``didReduce(_:)`` runs after an accepted action with the old and
/// new state. Both run on the dispatching thread, outside the store's lock, so
/// they may read ``Store/state`` or dispatch (such a dispatch is queued and
/// reduced after the current one). They must not block waiting for another
/// dispatch to finish.
///
/// Ready-made: ``Validate``, ``OnChange``, ``ActionLogger``; the ``Recorder`` is one too.
public protocol Middleware<State, Action>: Sendable {
    /// The store's state.
    associatedtype State: Sendable
    /// The store's actions.
    associatedtype Action: Sendable

    /// Sees `action` before the reducer; throw to reject it. Default: accepts.
    func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection)

    /// Sees an accepted action's change. Default: does nothing.
    func didReduce(_ change: StateChange<State, Action>)
}

extension Middleware {
    /// Accepts every action.
    public func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection) {}

    /// Ignores changes.
    public func didReduce(_ change: StateChange<State, Action>) {}
}
