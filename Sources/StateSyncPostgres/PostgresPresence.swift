import Logging
import PostgresNIO
import StateSyncCore
import StateSyncJournal
import Synchronization

/// Presence across the nodes of a cluster, kept in PostgreSQL: a node's
/// heartbeat in `statesync_nodes`, and which node owns each present
/// session in `statesync_presence` (written with the journal, see
/// ``PresenceRows``).
///
/// - A node registers its row when its stores open (``PostgresStores``), before it serves,
///   and renews its `heartbeat_at` every ``PostgresNode/heartbeatInterval``
///   (PostgreSQL's `now()`: one clock for every node, no skew between them).
/// - At each beat it also looks for dead nodes: a row whose heartbeat is
///   older than ``PostgresNode/expiry``. **Exactly one** live node claims
///   each, in one transaction: `DELETE … RETURNING` of the node's row takes
///   its row lock, so a second claimer waits, then finds the row gone
///   (READ COMMITTED re-checks a locked row) and claims nothing; the same
///   transaction adopts the sessions of every node no longer in
///   `statesync_nodes` (`UPDATE … SET node_id = me`), whose row locks again
///   let one claimer only adopt each session (a waiting claimer re-checks
///   the row, now owned by a live node, and skips it).
/// - The claimer then journals `sessionLeft` for each adopted session
///   through its engine, like any leave, so every node converges through
///   the journal; the commit of each `sessionLeft` deletes its row. Should
///   the claimer die before that commit, the adopted rows are its own and
///   are adopted again when it expires; should the commit be lost (refused
///   or failed), the rows adopted more than a heartbeat ago are left again
///   at the next beat.
/// - A clean shutdown journals `sessionLeft` for its own sessions (the
///   server asks ``ownSessions()``) and deletes its node row when the
///   node's stores close; a row a last batch still wrote is adopted by a live
///   node at its next beat, without waiting for an expiry.
/// - A node declared dead while it was alive (paused, or cut off from
///   PostgreSQL, for longer than the expiry) finds its row gone at its next
///   beat: the claim that deleted it adopted its session rows in the same
///   transaction. It registers again, then at each beat reads the rows of
///   its own sessions (their ids start with its node id). While another
///   node holds any of them, it waits: that node's `sessionLeft` is not
///   committed yet, and would undo a `sessionJoined` ordered before it.
///   Once none is held, its engine journals `sessionJoined` for each live
///   session without a row (the engine's `announceSessions(except:)`), and
///   that commit writes the rows as a normal join does, owned by this node.
///   Ownership stays single: the rows of a registered node are never
///   adopted, and this node writes its rows back only after the claimer's
///   leave removed them. It checks again at each beat until one finds
///   nothing to announce.
/// - A claimer's retried `sessionLeft` (its first commit was slower than a
///   heartbeat) can land after that: it removes a session this node has
///   announced again, at any later time. This node's engine sees it as it
///   follows the journal (the engine's `liveSessionsRemovedElsewhere`
///   grows), and the next beat announces the session again as above.
///
/// All of this is about the store whose row holds the heartbeat (`main`):
/// in the other stores, the sessions of departed nodes leave when a node
/// opens the store (``PostgresJournal/sessionsOfDepartedNodes()``).
///
/// Bounds: `statesync_nodes` holds one row per live node (a dead node's row
/// is deleted when it is claimed); `statesync_presence` one per present
/// session. The journal entries presence adds are bounded by the
/// journal's retention, like every entry.
final class PostgresPresence: ClusterPresence {
    let nodeID: String
    private let node: PostgresNode
    private let store: String
    private let connection: ReconnectingConnection
    private let logger: Logger
    /// Set by ``unregister()``: ``run(removingSessions:)`` ends at its next
    /// beat even if nobody cancels it (a server that failed while serving).
    private let unregistered = Mutex(false)

    init(node: PostgresNode, store: String, connection: ReconnectingConnection, logger: Logger) {
        nodeID = node.id
        self.node = node
        self.store = store
        self.connection = connection
        var logger = logger
        logger[metadataKey: "node"] = "\(node.id)"
        self.logger = logger
    }

    /// Inserts this node's row on `opening` (the presence connection, bounded
    /// by the journal's open timeout); called before the server serves, so that no
    /// session row of this node ever exists without its node row.
    ///
    /// - Throws: what PostgreSQL answered (a node with this id is alive).
    func register(on opening: TimedConnection) async throws {
        try await opening.run(
            "INSERT INTO statesync_nodes (store_id, node_id) VALUES (\(store), \(nodeID))", logger: logger)
        logger.info("cluster node registered", metadata: [
            "heartbeat": "\(node.heartbeatInterval)", "expiry": "\(node.expiry)"])
    }

    /// Deletes this node's row (its stores are closing, after their last batches).
    func unregister() async {
        unregistered.withLock { $0 = true }
        do {
            try await connection.run(
                "DELETE FROM statesync_nodes WHERE store_id = \(store) AND node_id = \(nodeID)", logger: logger)
        } catch {
            logger.warning("could not remove this node from the cluster; it expires", metadata: [
                "error": "\(PostgresFailure.message(error))"])
        }
        do {
            try await connection.close()
        } catch {
            logger.debug("closing the presence connection failed", metadata: ["error": "\(error)"])
        }
    }

    func run(
        removingSessions remove: @escaping @Sendable ([SessionInfo]) async -> Void,
        announcingSessions announce: @escaping @Sendable (_ present: Set<String>) async -> Int,
        removedElsewhere: @escaping @Sendable () -> Int
    ) async {
        var restoring = false
        var removalsSeen = removedElsewhere()
        while !Task.isCancelled, !unregistered.withLock({ $0 }) {
            do {
                if try await beat() { restoring = true }
                let removals = removedElsewhere()
                if removals != removalsSeen {
                    removalsSeen = removals
                    restoring = true
                }
                if restoring { restoring = try await restoreSessions(announce) }
                let gone = try await claimDeadSessions()
                if !gone.isEmpty { await remove(gone) }
            } catch {
                logger.warning("cluster heartbeat failed; retrying at the next beat", metadata: [
                    "error": "\(PostgresFailure.message(error))"])
            }
            do {
                try await Task.sleep(for: node.heartbeatInterval)
            } catch {
                return
            }
        }
    }

    func ownSessions() async -> [SessionInfo] {
        do {
            return try await connection.run("""
                SELECT session_id, name FROM statesync_presence WHERE store_id = \(store) AND node_id = \(nodeID)
                ORDER BY session_id
                """, logger: logger).decode((String, String).self).map { SessionInfo(id: $0.0, name: $0.1) }
        } catch {
            logger.warning("could not read this node's sessions; another node removes them after the expiry", metadata: [
                "error": "\(PostgresFailure.message(error))"])
            return []
        }
    }

    /// Renews the heartbeat, or registers again when another node declared
    /// this one dead; returns whether it registered again.
    private func beat() async throws -> Bool {
        let renewed = try await connection.run("""
            UPDATE statesync_nodes SET heartbeat_at = now()
             WHERE store_id = \(store) AND node_id = \(nodeID) RETURNING node_id
            """, logger: logger)
        guard renewed.isEmpty else { return false }
        logger.warning("""
            this node was declared dead by another (no heartbeat within the expiry), which removed its sessions from \
            presence; registering again, then announcing its live sessions again
            """)
        try await connection.run("""
            INSERT INTO statesync_nodes (store_id, node_id) VALUES (\(store), \(nodeID))
            ON CONFLICT (store_id, node_id) DO UPDATE SET heartbeat_at = now()
            """, logger: logger)
        return true
    }

    /// After this node registered again: once no other node holds a row of
    /// its sessions, has `announce` journal `sessionJoined` for its live
    /// sessions that have none (see the type's comment). Returns whether to
    /// look again at the next beat: a row was still held, or sessions were
    /// announced.
    private func restoreSessions(_ announce: @Sendable (_ present: Set<String>) async -> Int) async throws -> Bool {
        let rows = try await connection.run("""
            SELECT session_id, node_id FROM statesync_presence
             WHERE store_id = \(store) AND starts_with(session_id, \(nodeID + "-"))
            """, logger: logger).decode((String, String).self)
        let held = rows.filter { $0.1 != nodeID }
        guard held.isEmpty else {
            logger.debug("waiting for the node that claimed this one to remove its sessions", metadata: [
                "held": "\(held.count)"])
            return true
        }
        return await announce(Set(rows.map(\.0))) > 0
    }

    /// Claims the dead nodes and adopts their sessions (see the type's
    /// comment for why exactly one node does), plus the sessions this node
    /// adopted earlier whose `sessionLeft` did not commit: the sessions to
    /// leave now.
    private func claimDeadSessions() async throws -> [SessionInfo] {
        let expiry = node.expiry.inSeconds
        let open = try await connection.connection()
        let dead: [String]
        let adopted: [(String, String)]
        do {
            try await open.run("BEGIN", logger: logger)
            dead = try await open.run("""
                DELETE FROM statesync_nodes
                 WHERE store_id = \(store) AND node_id <> \(nodeID) AND heartbeat_at < now() - make_interval(secs => \(expiry))
                RETURNING node_id
                """, logger: logger).decode(String.self)
            adopted = try await open.run("""
                UPDATE statesync_presence SET node_id = \(nodeID), adopted_at = now()
                 WHERE store_id = \(store)
                   AND node_id NOT IN (SELECT node_id FROM statesync_nodes WHERE store_id = \(store))
                RETURNING session_id, name
                """, logger: logger).decode((String, String).self)
            try await open.run("COMMIT", logger: logger)
        } catch {
            if PostgresFailure.isServerAnswer(error) {
                _ = try? await open.run("ROLLBACK", logger: logger)   // the statement's own error is reported
            } else {
                connection.drop(open)
            }
            throw error
        }
        if !dead.isEmpty || !adopted.isEmpty {
            logger.info("removing the sessions of dead cluster nodes", metadata: [
                "dead": "\(dead.sorted().joined(separator: ","))", "sessions": "\(adopted.count)"])
        }
        let unfinished = try await connection.run("""
            SELECT session_id, name FROM statesync_presence
             WHERE store_id = \(store) AND node_id = \(nodeID)
               AND adopted_at < now() - make_interval(secs => \(node.heartbeatInterval.inSeconds))
            """, logger: logger).decode((String, String).self)
        // A row adopted just now is also "adopted more than a heartbeat ago" when the claim's
        // transaction (whose `now()` stamped it) took longer than a beat: leave it once.
        let adoptedNow = Set(adopted.map(\.0))
        return (adopted + unfinished.filter { !adoptedNow.contains($0.0) }).sorted { $0.0 < $1.0 }
            .map { SessionInfo(id: $0.0, name: $0.1) }
    }
}
