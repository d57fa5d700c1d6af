/// What the server journals and reduces: an application action attributed
/// to the session that sent it, or an event of the session lifecycle.
///
/// A reducer must be deterministic, so it may only read the state, the
/// action and ``Meta`` (revision, client id, time). Data that belongs to the
/// sending *session* (its id and the name it gave in `hello`) is not in the
/// client's action, and a client must not be trusted to send it. The server
/// therefore wraps each accepted client action in
/// ``dispatch(_:from:)`` with the ``SessionInfo`` it knows, and emits
/// ``sessionJoined(_:)`` / ``sessionLeft(_:)`` itself; these commands are
/// what the journal stores, so replaying it gives the same state byte for
/// byte. The application's reducer is a `Reducer<State, SessionCommand<Action>>`.
/// Clients cannot forge lifecycle commands: they dispatch `Action`s only.
///
/// ```swift
/// // server, for {"type":"dispatch","id":"a1","action":{"type":"postMessage","text":"hi"}}
/// let action = try BoardAction(wireValue: actionObject)
/// await store.dispatch(.dispatch(action, from: SessionInfo(id: "s-91", name: "alice")), clientID: "c-5f2a")
/// // server, after `welcome` and when the connection ends
/// await store.dispatch(.sessionJoined(SessionInfo(id: "s-91", name: "alice")))
/// await store.dispatch(.sessionLeft(SessionInfo(id: "s-91", name: "alice")))
/// ```
///
/// Effects (``StateSyncApp/effects``) answer with ``system(_:)`` commands,
/// which the server journals too: replay reduces their actions and never
/// runs the effect again.
///
/// Journal form (written and read by the package's `SessionCommandCoding`):
/// `{"command":"dispatch","session":{"id":"s-91","name":"alice"},"action":{…}}`,
/// `{"command":"system","action":{…}}`,
/// `{"command":"sessionJoined","session":{…}}`, `{"command":"sessionLeft","session":{…}}`,
/// `{"command":"serverStarted"}`.
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
    /// The server started: no session from before is connected any more
    /// (journaled when a store opens over a stored history that it
    /// changes, so that a crash, which journals no `sessionLeft`, leaves no
    /// stale session state behind; a store with no history yet, or whose
    /// sessions all left, has none to forget).
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
