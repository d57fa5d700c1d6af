/// Runs several reducers, in order, on every action.
///
/// All-or-nothing: when one rejects, the state is as before the action (see
/// ``ReducerSequence``). The footprint is the union of the children's.
///
/// ```swift
/// let app = CombineReducers {
///     Scope(state: \App.settings, action: { $0.settingsAction }) { SettingsReducer() }
///     Reduce<App, AppAction> { state, action, _ in state.lastAction = "\(action)" }
/// }
/// ```
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
