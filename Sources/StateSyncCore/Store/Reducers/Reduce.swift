/// A reducer written as a closure.
///
/// The closure may throw any error: a ``Rejection`` rejects the action with its
/// code, any other error rejects it with code `internal_error` (see
/// ``Rejection/init(_:)``). Its footprint is ``Footprint/everything``, since a
/// closure does not say what it touched; place it inside a ``Scope`` or
/// ``ForEachElement`` to narrow it.
///
/// The closure runs on a copy of the value it is given, which replaces the
/// value only when the closure returns: a rejection leaves it untouched. The
/// copy is free until the closure mutates; then each container it touches is
/// copied once (copy-on-write). At the root of a large state that is the cost
/// of the touched collections; inside ``ForEachElement`` it is one element.
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
