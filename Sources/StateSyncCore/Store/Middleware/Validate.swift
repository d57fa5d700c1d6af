/// Middleware that checks each action before the reducer and may reject it: a
/// thrown ``Rejection`` keeps its code, any other error rejects with
/// `internal_error` (see ``Rejection/init(_:)``).
public struct Validate<State: Sendable, Action: Sendable>: Middleware {
    private let check: @Sendable (Action, State, Meta) throws -> Void

    /// Middleware running `check` before every reduction.
    public init(_ check: @escaping @Sendable (Action, State, Meta) throws -> Void) {
        self.check = check
    }

    /// `false`: a check needs no old state (see ``Middleware``).
    public var observesStateChanges: Bool { false }

    /// Runs the check.
    public func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection) {
        do {
            try check(action, state, meta)
        } catch {
            throw Rejection(error)
        }
    }
}
