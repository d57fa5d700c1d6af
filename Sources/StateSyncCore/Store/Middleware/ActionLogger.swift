/// Middleware that writes one line per action to a sink (outcome, revision,
/// client, time spent): forward it to your `Logger`, or `print`. It observes no
/// state changes, so it costs no copy of the state.
///
/// ```swift
/// ActionLogger<Board, BoardAction> { print($0) }
/// // accepted increment(counter: "hits", by: 1) -> rev 43 from c-5f2a in 3.1 µs
/// ```
public struct ActionLogger<State: Sendable, Action: Sendable>: Middleware {
    private let sink: @Sendable (String) -> Void

    /// A logger writing its lines to `sink`.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// `false`: the logger needs only ``didProcess(_:)``.
    public var observesStateChanges: Bool { false }

    /// Logs the action's outcome.
    public func didProcess(_ report: ActionReport<Action>) {
        let client = report.meta.clientID ?? "-"
        let took = Self.microseconds(report.duration)
        switch report.outcome {
        case .accepted:
            sink("accepted \(report.action) -> rev \(report.meta.revision) from \(client) in \(took)")
        case .rejected(let rejection):
            sink("rejected \(report.action) at rev \(report.meta.revision) from \(client) in \(took): \(rejection)")
        }
    }

    /// `duration` in microseconds with one decimal, e.g. `3.1 µs`.
    private static func microseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000_000 + attoseconds / 100_000_000_000
        return "\(tenths / 10).\(tenths % 10) µs"
    }
}
