/// A pure state transition: `(inout State, Action, Meta)`.
///
/// A reducer changes the state for an action, using only the action, the
/// current state and ``Meta`` (revision, client, acceptance time): no clocks,
/// no randomness, no I/O, and no access to the store (DESIGN invariant 2). It
/// may refuse the action by throwing a ``Rejection``.
///
/// **Contract: a reducer that throws leaves `state` exactly as it was.** The
/// store reduces its state in place (no copy of the whole state per action)
/// and relies on this. The built-in reducers keep it for you at the smallest
/// cost they can: ``Reduce`` runs its closure on a copy of the value it is
/// given (so inside ``ForEachElement`` only the element is copied),
/// ``Scope``, ``IfLet`` and ``ForEachElement`` pass the guarantee through, and
/// a ``ReducerSequence`` keeps a snapshot only when both of its reducers
/// handle the action. A hand-written conformance must check before mutating,
/// or restore what it changed before throwing.
///
/// It returns a ``Footprint`` saying what it may have changed, which lets the
/// store skip observers of untouched parts. Compose reducers with ``Reduce``,
/// ``CombineReducers``, ``Scope``, ``IfLet`` and ``ForEachElement``:
///
/// ```swift
/// let reducer = CombineReducers {
///     Scope(state: \Board.counters, action: \BoardAction.counter) { CounterReducer() }
///     ForEachElement(state: \Board.todos, action: \BoardAction.todoAction) { TodoReducer() }
/// }
/// ```
public protocol Reducer<State, Action>: Sendable {
    /// The state this reducer changes.
    associatedtype State
    /// The actions it understands.
    associatedtype Action

    /// Applies `action` to `state`, or throws a ``Rejection`` leaving `state` unchanged.
    ///
    /// - Returns: what may have changed. Return ``Footprint/everything`` when unsure:
    ///   a footprint smaller than the real change makes observers miss it.
    func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint

    /// Whether `action` may change the state or be rejected by this reducer.
    /// `false` lets a ``ReducerSequence`` skip it, and skip the snapshot it
    /// otherwise keeps to undo the first reducer when the second rejects.
    /// Default: `true`; ``Scope``, ``IfLet`` and ``ForEachElement`` answer
    /// from their action extraction.
    func handles(_ action: Action) -> Bool
}

extension Reducer {
    /// Every action may concern this reducer.
    public func handles(_ action: Action) -> Bool { true }
}
