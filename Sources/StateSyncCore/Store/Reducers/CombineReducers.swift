/// Runs several reducers, in order, on every action: all-or-nothing (see
/// ``ReducerSequence``), with the union of their footprints.
public struct CombineReducers<Reducers: Reducer>: Reducer {
    private let reducers: Reducers

    /// Combines the reducers listed in `build`.
    public init<State, Action>(
        @ReducerBuilder<State, Action> _ build: () -> Reducers
    ) where Reducers.State == State, Reducers.Action == Action {
        reducers = build()
    }

    /// Runs the combined reducers.
    public func reduce(into state: inout Reducers.State, action: Reducers.Action, meta: Meta) throws(Rejection) -> Footprint {
        try reducers.reduce(into: &state, action: action, meta: meta)
    }

    /// Whether any combined reducer handles `action`.
    public func handles(_ action: Reducers.Action) -> Bool {
        reducers.handles(action)
    }
}
