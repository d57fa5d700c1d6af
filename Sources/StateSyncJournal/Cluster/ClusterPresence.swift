public import StateSyncCore

/// A node's share of presence when several servers serve one store (a
/// cluster on a shared ``Journal``, `statesync serve --postgres`).
///
/// Each node owns the presence of the sessions it joined: their
/// `sessionJoined` and `sessionLeft` are journaled by that node, as on a
/// single server. What a single server does with `serverStarted` (forget
/// every session of the previous run) would wipe the sessions of the other,
/// live nodes, so a server whose journal has a cluster presence journals no
/// `serverStarted`; instead every node runs ``run(removingSessions:announcingSessions:removedElsewhere:)``,
/// which notices nodes that died without saying so and has exactly one
/// surviving node journal `sessionLeft` for each of their sessions.
///
/// A node that was declared dead while it was alive (paused, or cut off
/// from the store, for longer than the expiry) had its sessions removed
/// that way although they are still connected: when it registers again,
/// ``run(removingSessions:announcingSessions:removedElsewhere:)`` has it journal
/// `sessionJoined` for them again.
///
/// The server drives it: ``nodeID`` prefixes its session ids (unique across
/// the cluster), ``run(removingSessions:announcingSessions:removedElsewhere:)`` runs while
/// it serves, and at a clean shutdown it journals `sessionLeft` for
/// ``ownSessions()`` before its last batch.
public protocol ClusterPresence: Sendable {
    /// This node's id in the cluster, random at each start (e.g.
    /// `n-3fa2c19b0a1d`); the server's session ids start with it.
    var nodeID: String { get }

    /// Keeps this node alive in the cluster (heartbeat) and, each time a
    /// node is found dead, calls `remove` with its sessions, which the
    /// caller journals as `sessionLeft`. When this node finds it was itself
    /// declared dead, it registers again and calls `announce` with the ids
    /// of its sessions whose presence is still recorded: the caller
    /// journals `sessionJoined` for each of its other live sessions and
    /// returns how many it announced. It does the same when
    /// `removedElsewhere` (the engine counts them as it follows the journal)
    /// grows: another node's `sessionLeft` removed sessions still connected
    /// here. Returns when cancelled.
    func run(
        removingSessions remove: @escaping @Sendable ([SessionInfo]) async -> Void,
        announcingSessions announce: @escaping @Sendable (_ present: Set<String>) async -> Int,
        removedElsewhere: @escaping @Sendable () -> Int
    ) async

    /// The sessions whose presence this node owns as the store records
    /// them now (their `sessionJoined` durable, no `sessionLeft` yet).
    func ownSessions() async -> [SessionInfo]
}
