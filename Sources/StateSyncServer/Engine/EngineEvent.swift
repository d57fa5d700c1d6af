import StateSyncCore
import StateSyncJournal
import StateSyncProtocol

/// One request to the sequencer, from ``SyncEngine``'s methods, a journal
/// completion or an effect, handled in arrival order. Not generic over the app
/// on purpose: a generic enum costs a runtime metadata lookup per payload.
enum EngineEvent: Sendable {
    /// A session completed `hello` (or an HTTP request began); `announced`
    /// sessions are journaled in presence.
    case join(SessionInfo, clientID: String?, role: Role, sink: any SessionSink, announced: Bool)
    /// A session's token was refreshed (`auth`): its role in this store is now `role`.
    case changeRole(sessionID: String, role: Role)
    /// A session's connection ended.
    case leave(sessionID: String)
    /// What a joined session asked, and when it reached the engine.
    case request(sessionID: String, SessionRequest, received: ContinuousClock.Instant)
    /// An effect's follow-up in its journal form (``SessionCommandCoding``),
    /// to reduce and journal as a system command; `reduced` is resumed once
    /// it has been (or the engine has stopped).
    case system(journaled: [UInt8], reduced: CheckedContinuation<Void, Never>)
    /// Journal `sessionJoined` again for the announced sessions whose ids
    /// are not in `present` (``SyncEngine/announceSessions(except:)``);
    /// `announced` is resumed with how many were.
    case announceSessions(except: Set<String>, announced: CheckedContinuation<Int, Never>)
    /// Devtools: the joined sessions, answered through `reply` once every fan-out shard has answered.
    case listSessions(@Sendable ([SessionSummary]) -> Void)
    /// The batch in flight was written, or the journal failed.
    case durable(Result<Void, JournalError>)
    /// A ``SharedJournal``'s hint (``SharedJournal/follow(hint:)``): its
    /// head may be at `head`, past this engine's revision.
    case journalHint(UInt64)
    /// The writer of the store answered a dispatch this node forwarded to
    /// it, or its link closed first (``ClusterLinks``).
    case forwardAnswered(sessionID: String, id: String, action: JSONObject, received: ContinuousClock.Instant, outcome: ForwardOutcome)
    /// A held request's deadline passed: run a round to answer it.
    case deadline
    /// Finish what is queued, then stop.
    case shutdown

    /// Ends an event the stopped sequencer will never handle, so no caller waits forever.
    func abandon() {
        switch self {
        case .listSessions(let reply): reply([])
        case .system(_, let reduced): reduced.resume()
        case .announceSessions(_, let announced): announced.resume(returning: 0)
        default: break
        }
    }
}
