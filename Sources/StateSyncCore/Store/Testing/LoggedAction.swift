/// One action a ``TestStore``'s log recorded: accepted, with the change it
/// made, or rejected, with why.
enum LoggedAction<State: Sendable, Action: Sendable>: Sendable {
    /// The reducer changed the state.
    case accepted(StateChange<State, Action>)
    /// A middleware or the reducer refused the action; `meta` is the metadata
    /// it would have had (its revision is the next accepted action's).
    case rejected(Action, Rejection, meta: Meta)

    /// The action.
    var action: Action {
        switch self {
        case .accepted(let change): change.action
        case .rejected(let action, _, _): action
        }
    }

    /// Whether this is the accepted action that produced `revision`.
    func isAccepted(revision: UInt64) -> Bool {
        if case .accepted(let change) = self { change.meta.revision == revision } else { false }
    }

    /// How failure reports name it: `decrement`, or
    /// `decrement (rejected: invalid_action)` for a rejected action.
    var summary: String {
        switch self {
        case .accepted(let change): "\(change.action)"
        case .rejected(let action, let rejection, _): "\(action) (rejected: \(rejection.code))"
        }
    }
}

extension LoggedAction where Action: Equatable {
    /// Whether this is `action` refused with `rejection`.
    func isRejection(of action: Action, with rejection: Rejection) -> Bool {
        if case .rejected(let logged, let reason, _) = self { logged == action && reason == rejection } else { false }
    }
}
