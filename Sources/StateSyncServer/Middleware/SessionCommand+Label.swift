import StateSyncCore

extension SessionCommand where Action: WireAction {
    /// A short name for logs and metric labels: the action's wire `type` for
    /// a client's or the server's action, else the lifecycle command's name.
    var label: String {
        switch self {
        case .dispatch(let action, _), .system(let action):
            return action.wireType
        case .sessionJoined: return "sessionJoined"
        case .sessionLeft: return "sessionLeft"
        case .serverStarted: return "serverStarted"
        }
    }

    /// Who sent it: `client` (a session's dispatch), `server` (an effect's
    /// follow-up) or `lifecycle` (presence and start-up).
    var origin: String {
        switch self {
        case .dispatch: "client"
        case .system: "server"
        case .sessionJoined, .sessionLeft, .serverStarted: "lifecycle"
        }
    }
}
