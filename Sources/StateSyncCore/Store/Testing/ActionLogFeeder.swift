/// The middleware that feeds an ``ActionLog``: accepted actions from
/// ``didReduce(_:)``, rejections from ``didProcess(_:)`` (the only hook that
/// sees them), in processing order since the store runs one at a time.
struct ActionLogFeeder<State: Sendable, Action: Sendable>: Middleware {
    let log: ActionLog<State, Action>

    /// `true`: the test store needs the old state of each accepted action.
    var observesStateChanges: Bool { true }

    /// Logs an accepted action with its change.
    func didReduce(_ change: StateChange<State, Action>) {
        log.append(.accepted(change))
    }

    /// Logs a rejected action (accepted ones were logged by ``didReduce(_:)``).
    func didProcess(_ report: ActionReport<Action>) {
        if case .rejected(let rejection) = report.outcome {
            log.append(.rejected(report.action, rejection, meta: report.meta))
        }
    }
}
