/// Runs a child reducer on one part of the state (`state`) for the actions
/// `action` extracts (`nil`: nothing runs, footprint ``Footprint/nothing``);
/// `action` may be a key path to an optional computed property.
///
/// ```swift
/// enum AppAction { case counter(CounterAction), other
///     var counter: CounterAction? { if case .counter(let a) = self { a } else { nil } }
/// }
/// Scope(state: \App.count, action: \AppAction.counter) { CounterReducer() }
/// ```
public struct Scope<State, Action, Child: Reducer>: Reducer {
    private let statePath: any WritableKeyPath<State, Child.State> & Sendable
    private let toChildAction: @Sendable (Action) -> Child.Action?
    private let child: Child

    /// A scope running `child` on `state[keyPath: state]` for actions `action` extracts.
    public init<ChildState, ChildAction>(
        state: any WritableKeyPath<State, ChildState> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        @ReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.statePath = state
        self.toChildAction = action
        self.child = child()
    }

    /// Runs the child in place on the scoped state.
    public func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint {
        guard let childAction = toChildAction(action) else { return .nothing }
        let footprint = try child.reduce(into: &state[keyPath: statePath], action: childAction, meta: meta)
        return footprint.prefixed(by: statePath)
    }

    /// Whether the action extraction finds an action here.
    public func handles(_ action: Action) -> Bool {
        toChildAction(action) != nil
    }
}
