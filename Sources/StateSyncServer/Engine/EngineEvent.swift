import StateSyncCore
import StateSyncProtocol

/// One request to the sequencer, queued by ``SyncEngine``'s public methods
/// (from any thread) or by a journal completion, handled in arrival order.
enum EngineEvent: Sendable {
    case join(SessionInfo, clientID: String?, role: Role, sink: any SessionSink)
    case leave(sessionID: String)
    case subscribe(sessionID: String, id: String, path: JSONPointer, since: UInt64?)
    case unsubscribe(sessionID: String, id: String)
    case get(sessionID: String, id: String, path: JSONPointer)
    case dispatch(sessionID: String, id: String, action: JSONObject, received: ContinuousClock.Instant)
    case drained(sessionID: String)
    /// Devtools: the joined sessions, answered through `reply` from the sequencer's task.
    case listSessions(@Sendable ([SessionSummary]) -> Void)
    case durable(Result<Void, JournalError>)
    case shutdown
}
