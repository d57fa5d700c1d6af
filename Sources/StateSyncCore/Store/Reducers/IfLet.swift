/// Runs a child reducer on an optional part of the state while it exists; an
/// action for the child while the state at `state` is `nil` is rejected with
/// `not_found`. The footprint is the key path.
///
/// ```swift
/// IfLet(state: \App.editor, action: \AppAction.editor) { EditorReducer() }
/// ```
public struct IfLet<State, Action, Child: Reducer>: Reducer {
    private let scope: Scope<State, Action, Unwrapped<Child>>

    /// Runs `child` on the wrapped value at `state` for actions `action` extracts.
    public init<ChildState, ChildAction>(
        state: any WritableKeyPath<State, ChildState?> & Sendable,
        action: @escaping @Sendable (Action) -> ChildAction?,
        @ReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        let unwrapped = Unwrapped(child: child(), name: "\(state)")
        scope = Scope(state: state, action: action) { unwrapped }
    }

    /// Runs the child in place on the wrapped value, or rejects when it is `nil`.
    public func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint {
        try scope.reduce(into: &state, action: action, meta: meta)
    }

    /// Whether the action extraction finds an action here.
    public func handles(_ action: Action) -> Bool {
        scope.handles(action)
    }
}

/// Runs a reducer on the wrapped value of an optional state; rejects with
/// `not_found` naming `name` when the value is `nil`.
struct Unwrapped<Child: Reducer>: Reducer {
    let child: Child
    let name: String

    func reduce(into state: inout Child.State?, action: Child.Action, meta: Meta) throws(Rejection) -> Footprint {
        guard state != nil else { throw Rejection.notFound("\(name) is nil") }
        let footprint = try child.reduce(into: &state!, action: action, meta: meta)
        return footprint.isNothing ? .nothing : .everything
    }
}
