/// A pure state transition: `(inout State, Action, Meta)`.
///
/// A reducer reads only the action, the state and ``Meta``: no clocks,
/// randomness, I/O or store (DESIGN invariant 2). **A reducer that throws a
/// ``Rejection`` leaves `state` exactly as it was**: the store reduces in
/// place. A hand-written one checks before mutating, or restores before
/// throwing. Its ``Footprint`` lets the store skip untouched observers.
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

    /// Applies `action` to `state`, or throws leaving `state` unchanged.
    /// - Returns: what may have changed; ``Footprint/everything`` when unsure
    ///   (a smaller footprint than the change makes observers miss it).
    func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint

    /// Whether `action` may change the state or be rejected here; `false` lets
    /// a ``ReducerSequence`` skip this reducer and its undo snapshot. Default:
    /// `true`.
    func handles(_ action: Action) -> Bool
}

extension Reducer {
    /// Every action may concern this reducer.
    public func handles(_ action: Action) -> Bool { true }
}
