public import StateSyncCore

/// A node's share of presence when several servers serve one store (a cluster
/// on a shared ``Journal``, `statesync serve --postgres`). Each node journals the
/// `sessionJoined` and `sessionLeft` of its own sessions, and no `serverStarted`
/// (it would wipe live nodes' sessions): ``run(removingSessions:announcingSessions:removedElsewhere:)``
/// has exactly one surviving node journal `sessionLeft` for a dead node's sessions,
/// and a node wrongly declared dead announces its sessions again. ``nodeID``
/// prefixes session ids; a clean shutdown journals `sessionLeft` for ``ownSessions()``.
public protocol ClusterPresence: Sendable {
    /// This node's id in the cluster, random at each start (e.g.
    /// `n-3fa2c19b0a1d`); the server's session ids start with it.
    var nodeID: String { get }

    /// Heartbeats this node and calls `remove` with each dead node's sessions. When this
    /// node was declared dead, or `removedElsewhere` grows, it calls `announce` with its
    /// recorded sessions; the caller rejoins the others and returns how many. Returns when cancelled.
    func run(
        removingSessions remove: @escaping @Sendable ([SessionInfo]) async -> Void,
        announcingSessions announce: @escaping @Sendable (_ present: Set<String>) async -> Int,
        removedElsewhere: @escaping @Sendable () -> Int
    ) async

    /// The sessions whose presence this node owns as the store records
    /// them now (their `sessionJoined` durable, no `sessionLeft` yet).
    func ownSessions() async -> [SessionInfo]
}
