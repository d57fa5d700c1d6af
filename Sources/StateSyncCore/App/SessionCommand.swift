/// What the server journals and reduces: an application action attributed to
/// the session that sent it, or an event of the session lifecycle.
///
/// A client cannot be trusted with its session's data, and a reducer reads only
/// the state, the action and ``Meta``; so the server wraps each client action
/// in ``dispatch(_:from:)`` with the ``SessionInfo`` it knows, emits
/// ``sessionJoined(_:)`` and ``sessionLeft(_:)`` itself, and journals the
/// ``system(_:)`` commands of effects too: a replay gives the same state byte
/// for byte and runs no effect again.
///
/// ```swift
/// // server, for {"type":"dispatch","id":"a1","action":{"type":"postMessage","text":"hi"}}
/// let action = try BoardAction(wireValue: actionObject)
/// await store.dispatch(.dispatch(action, from: SessionInfo(id: "s-91", name: "alice")), clientID: "c-5f2a")
/// // server, after `welcome` and when the connection ends
/// await store.dispatch(.sessionJoined(SessionInfo(id: "s-91", name: "alice")))
/// await store.dispatch(.sessionLeft(SessionInfo(id: "s-91", name: "alice")))
/// ```
public enum SessionCommand<Action> {
    /// A client's action, sent by `session`.
    case dispatch(Action, from: SessionInfo)
    /// An action the server dispatched itself, e.g. an effect's follow-up;
    /// attributed to no session. Journaled like any other command, so
    /// replay never re-runs the effect that produced it.
    case system(Action)
    /// A session completed `hello` (journaled by the server after `welcome`).
    case sessionJoined(SessionInfo)
    /// A session's connection ended.
    case sessionLeft(SessionInfo)
    /// The server started: no earlier session is connected any more. Journaled
    /// when a store opens over a history whose state it changes, so a crash
    /// (which journals no `sessionLeft`) leaves no stale sessions.
    case serverStarted

    /// The application action, for ``dispatch(_:from:)`` and ``system(_:)``;
    /// otherwise `nil`. An app that needs no session data lifts its reducer
    /// with it: `Scope(state: \.self, action: \.action) { AppReducer() }`.
    public var action: Action? {
        switch self {
        case .dispatch(let action, _), .system(let action): action
        case .sessionJoined, .sessionLeft, .serverStarted: nil
        }
    }

    /// The session the command concerns; `nil` for ``system(_:)`` and ``serverStarted``.
    public var session: SessionInfo? {
        switch self {
        case .dispatch(_, let session), .sessionJoined(let session), .sessionLeft(let session): session
        case .system, .serverStarted: nil
        }
    }
}

extension SessionCommand: Sendable where Action: Sendable {}
extension SessionCommand: Equatable where Action: Equatable {}
extension SessionCommand: Hashable where Action: Hashable {}
