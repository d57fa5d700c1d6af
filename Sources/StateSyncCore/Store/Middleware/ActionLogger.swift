/// Middleware that writes one line per action to a sink: each action as it
/// arrives, and the revision it produced.
///
/// The core module does not depend on swift-log; pass a sink that forwards to
/// your `Logger` (`ActionLogger { logger.trace("\($0)") }`) or `print`.
///
/// ```swift
/// ActionLogger<Board, BoardAction> { print($0) }
/// // action increment(counter: "hits", by: 1) at rev 43 from c-5f2a
/// // accepted increment(counter: "hits", by: 1) -> rev 43
/// ```
public struct ActionLogger<State: Sendable, Action: Sendable>: Middleware {
    private let sink: @Sendable (String) -> Void

    /// A logger writing its lines to `sink`.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Logs the incoming action.
    public func willReduce(_ action: Action, state: State, meta: Meta) throws(Rejection) {
        sink("action \(action) at rev \(meta.revision) from \(meta.clientID ?? "-")")
    }

    /// Logs the accepted action and its revision.
    public func didReduce(_ change: StateChange<State, Action>) {
        sink("accepted \(change.action) -> rev \(change.meta.revision)")
    }
}
