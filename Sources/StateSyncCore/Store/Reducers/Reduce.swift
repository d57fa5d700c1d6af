/// A reducer written as a closure.
///
/// A thrown ``Rejection`` rejects with its code, any other error with
/// `internal_error`. The footprint is ``Footprint/everything``: narrow it with
/// a ``Scope`` or ``ForEachElement``. The closure works on a copy that replaces
/// the value only when it returns, so a rejection changes nothing.
///
/// ```swift
/// let counter = Reduce<Int, CounterAction> { count, action, _ in
///     switch action {
///     case .increment: count += 1
///     case .add(let amount):
///         guard abs(amount) <= 1_000_000 else { throw Rejection.invalidAction("amount \(amount) is too large") }
///         count += amount
///     }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
    private let body: @Sendable (inout State, Action, Meta) throws -> Void

    /// A reducer running `body`.
    public init(_ body: @escaping @Sendable (inout State, Action, Meta) throws -> Void) {
        self.body = body
    }

    /// Runs the closure; reports ``Footprint/everything``.
    public func reduce(into state: inout State, action: Action, meta: Meta) throws(Rejection) -> Footprint {
        var copy = state
        do {
            try body(&copy, action, meta)
        } catch {
            throw Rejection(error)
        }
        state = copy
        return .everything
    }
}
