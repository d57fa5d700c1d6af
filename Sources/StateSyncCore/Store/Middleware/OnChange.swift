/// Middleware that runs a closure with the ``StateChange`` of every accepted
/// action.
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
