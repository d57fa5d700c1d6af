import PostgresNIO
public import StateSyncCore
import StateSyncJournal

extension PostgresJournal {
    /// The sessions in this store's `statesync_presence` whose node is not live: a node
    /// that stops leaves its sessions in stores other than its heartbeat's, so the next
    /// opener has them leave. A failed read finds none (the next opening looks again).
    public func sessionsOfDepartedNodes() async -> [SessionInfo] {
        guard let nodeStoreID, nodeStoreID != configuration.storeID else { return [] }
        do {
            return try await reader.run("""
                SELECT session_id, name FROM statesync_presence
                 WHERE store_id = \(configuration.storeID)
                   AND node_id NOT IN (SELECT node_id FROM statesync_nodes WHERE store_id = \(nodeStoreID))
                 ORDER BY session_id
                """, logger: logger).decode((String, String).self).map { SessionInfo(id: $0.0, name: $0.1) }
        } catch {
            logger.warning("could not read the sessions of departed nodes; the next opening of the store looks again", metadata: [
                "error": "\(PostgresFailure.message(error))"])
            return []
        }
    }
}
