import StateSyncCore
import StateSyncProtocol

/// What the sequencer keeps of a joined session: who it is, for dispatches
/// and presence, and which ``FanOutShard`` sends to it. Its sink,
/// subscriptions and slow-consumer state live in that shard only.
struct JoinedSession {
    /// Its id and name.
    var info: SessionInfo
    /// The `clientId` it gave in `hello`, scoping its action ids.
    var clientID: String?
    /// What it may do.
    var role: Role
    /// Whether its joining and leaving are journaled (presence).
    var announced: Bool
    /// The index of its shard in ``FanOutShards``.
    var shard: Int
}
