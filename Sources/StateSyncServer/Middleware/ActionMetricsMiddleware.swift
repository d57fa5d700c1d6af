public import CoreMetrics
public import StateSyncCore
import Synchronization

/// Middleware that counts every command in `statesync_actions_total{type,outcome}`.
/// Only decoded actions are counted, so labels are bounded by the app's types
/// and codes, never by what clients send.
///
/// ```swift
/// let server = StateSyncServer<Board>(middleware: [ActionMetricsMiddleware<Board>()])
/// // statesync_actions_total{outcome="accepted",type="addTodo"} 12
/// ```
public struct ActionMetricsMiddleware<App: StateSyncApp>: Middleware {
    /// The app's state.
    public typealias State = App.State
    /// The commands the engine runs.
    public typealias Action = SessionCommand<App.Action>

    private let factory: any MetricsFactory
    private let counters = CounterTable()

    /// A middleware counting with `factory` (default: the process's `MetricsSystem`).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    /// `false`: the outcome is enough.
    public var observesStateChanges: Bool { false }

    /// Counts the command's outcome.
    public func didProcess(_ report: ActionReport<Action>) {
        let outcome = switch report.outcome {
        case .accepted: "accepted"
        case .rejected(let rejection): rejection.code
        }
        counter(for: Labels(type: report.action.label, outcome: outcome)).increment()
    }

    private func counter(for labels: Labels) -> Counter {
        counters.table.withLock { counters in
            if let counter = counters[labels] { return counter }
            let counter = Counter(
                label: "statesync_actions_total", dimensions: [("type", labels.type), ("outcome", labels.outcome)],
                factory: factory)
            counters[labels] = counter
            return counter
        }
    }
}

private struct Labels: Hashable {
    var type: String
    var outcome: String
}

/// One counter per label pair, created once and shared by the middleware's copies.
private final class CounterTable: Sendable {
    let table = Mutex<[Labels: Counter]>([:])
}
