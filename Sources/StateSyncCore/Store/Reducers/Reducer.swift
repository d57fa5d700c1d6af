/// A pure state transition: `(inout State, Action, Meta)`.
///
/// A reducer changes the state for an action, using only the action, the
/// current state and ``Meta`` (revision, client, acceptance time): no clocks,
/// no randomness, no I/O (DESIGN invariant 2). It may refuse the action by
/// throwing a ``Rejection``; the store then discards everything the reducer
/// did, because it reduces on a copy of its state.
///
/// It returns a ``Footprint`` saying what it may have changed, which lets the
/// store skip observers of untouched parts. Compose reducers with ``Reduce``,
/// ``CombineReducers``, ``Scope``, ``IfLet`` and ``ForEachElement``:
///
/// ```swift
/// let reducer = CombineReducers {
///     Scope(state: \Board.counters, action: \BoardAction.counter) { CounterReducer() }
///     ForEachElement(state: \Board.todos, action: { $0.todoAction }) { TodoReducer() }
/// }
/// ```
public protocol Reducer<State, Action>: Sendable {
    /// The state this reducer changes.
    associatedtype State
    /// The actions it understands.
    associatedtype Action

    /// Applies `action` to `state`, or throws a ``Rejection``.
    ///
    /// - Returns: what may have changed. Return ``Footprint/everything`` when unsure:
    ///   a footprint smaller than the real change makes observers miss it.
    func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint
}
