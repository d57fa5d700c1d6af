/// Runs a child reducer on an optional part of the state while it exists.
///
/// An action meant for the child (`action` returns non-`nil`) while the state at
/// `state` is `nil` is rejected with `not_found`, naming the key path.
///
/// ```swift
/// IfLet(state: \App.editor, action: \AppAction.editor) { EditorReducer() }
/// ```
public struct IfLet<State, Action, Child: Reducer>: Reducer {
    private let statePath: any WritableKeyPath<State, Child.State?> & Sendable
    private let toChildAction: @Sendable (Action) -> Child.Action?
    private let child: Child

    /// Runs `child` on the wrapped value at `state` for actions `action` extracts.
    public init<ChildState, ChildAction>(
        state: any WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        @ReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.statePath = state
        self.toChildAction = action
        self.child = child()
    }

    /// Runs the child in place on the wrapped value, or rejects when it is `nil`.
    public func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint {
        guard let childAction = toChildAction(action) else { return .nothing }
        guard state[keyPath: statePath] != nil else {
            throw Rejection.notFound("\(statePath) is nil")
        }
        let footprint = try child.reduce(into: &state[keyPath: statePath]!, action: childAction, meta: meta)
        return footprint.isNothing ? .nothing : .keyPath(statePath)
    }

    /// Whether the action extraction finds an action here.
    public func handles(_ action: Action) -> Bool {
        toChildAction(action) != nil
    }
}
