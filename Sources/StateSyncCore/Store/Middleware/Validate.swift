/// Middleware that checks each action before the reducer and may reject it.
///
/// ```swift
/// let writersOnly = Validate<Board, BoardAction> { action, state, meta in
///     guard meta.clientID != nil else { throw Rejection.forbidden("anonymous clients may not dispatch") }
/// }
/// ```
public struct Validate<State: Sendable, Action: Sendable>: Middleware {
    private let check: @Sendable (Action, State, Meta) throws(Rejection) -> Void

    /// Middleware running `check` before every reduction.
    public init(_ check: @escaping @Sendable (Action, State, Meta) throws(Rejection) -> Void) {
        self.check = check
    }

    /// Runs the check.
    public func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection) {
        try check(action, state, meta)
    }
}
