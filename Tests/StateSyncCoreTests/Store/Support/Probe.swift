import StateSyncCore

/// Middleware that writes what it is shown to `events`, and rejects the
/// actions `rejects` names.
struct Probe: Middleware {
    typealias State = AppState
    typealias Action = AppAction

    let name: String
    let events: Collected<String>
    var observesStateChanges = true
    var rejects: [AppAction] = []

    func willReduce(_ action: AppAction, state: AppState, meta: Meta) throws(Rejection) {
        events.append("\(name) will \(action)")
        if rejects.contains(action) { throw Rejection(code: "refused_by_\(name)", message: "\(action)") }
    }

    func didReduce(_ change: StateChange<AppState, AppAction>) {
        events.append("\(name) did rev \(change.meta.revision)")
    }

    func didProcess(_ report: ActionReport<AppAction>) {
        switch report.outcome {
        case .accepted: events.append("\(name) processed accepted")
        case .rejected(let rejection): events.append("\(name) processed rejected \(rejection.code)")
        }
    }
}
