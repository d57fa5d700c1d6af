/// Middleware that runs a closure after every accepted action.
///
/// ```swift
/// let audit = OnChange<Board, BoardAction> { change in
///     if change.old.todos.count != change.new.todos.count { auditLog.append(change.meta) }
/// }
/// ```
public struct OnChange<State: Sendable, Action: Sendable>: Middleware {
    private let body: @Sendable (StateChange<State, Action>) -> Void

    /// Middleware running `body` after every accepted action.
    public init(_ body: @escaping @Sendable (StateChange<State, Action>) -> Void) {
        self.body = body
    }

    /// Runs the closure.
    public func didReduce(_ change: StateChange<State, Action>) {
        body(change)
    }
}
