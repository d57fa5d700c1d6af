/// The middleware that feeds an ``ActionLog``: every action's outcome, in
/// the order the store processed them.
///
/// An accepted action is logged from ``didReduce(_:)``, which has the old and
/// new state the ``TestStore`` compares; a rejected one from
/// ``didProcess(_:)``, the only hook that sees rejections (whether the reducer
/// or another middleware refused it). The store processes one action at a
/// time, so the two hooks append in processing order.
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
