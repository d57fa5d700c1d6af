import Logging
import PostgresNIO
import StateSyncCore
import StateSyncJournal
import Synchronization

/// Presence across the nodes of a cluster, kept in PostgreSQL: each node's heartbeat in
/// `statesync_nodes` (PostgreSQL's `now()`, one clock), and each present session's owning
/// node in `statesync_presence` (written with the journal, ``PresenceRows``).
/// At each beat a node claims nodes silent past ``PostgresNode/expiry``: `DELETE … RETURNING`
/// takes the row's lock, so exactly one claimer (READ COMMITTED re-checks) adopts their
/// sessions in that transaction and journals their `sessionLeft`; adopted rows whose leave
/// did not commit are left again a beat later. A node declared dead while alive registers
/// again and, once no other node holds its sessions' rows, announces them again.
/// This covers the heartbeat's store (`main`); other stores use
/// ``PostgresJournal/sessionsOfDepartedNodes()`` (docs/cluster.md, "Presence across nodes").
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

    /// Inserts this node's row on `opening` before the server serves, so that no session row
    /// of this node exists without its node row; throws when a node with this id is alive.
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

    /// After registering again: once no other node holds a row of its sessions, has
    /// `announce` rejoin its live sessions without one. Returns whether to look again next beat.
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

    /// Claims the dead nodes and adopts their sessions, plus those adopted earlier whose
    /// `sessionLeft` did not commit: the sessions to leave now.
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
