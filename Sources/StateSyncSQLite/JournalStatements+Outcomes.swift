import GRDB
import StateSyncJournal

/// The SQL of the outcomes' per-clientId retention (``OutcomeRetention``, ``JournalBatch``):
/// forgetting, trimming and listing clientIds, each through the `UNIQUE (client_id,
/// action_id)` index. There is no `(client_id, seq)` index: it would cost every insert and delete.
extension JournalStatements {
    /// Drops every outcome of `clients` (before the batch's own are recorded).
    static func forgetOutcomes(of clients: [String], in db: Database, scope: JournalScope) throws {
        guard !clients.isEmpty else { return }
        let delete = try db.cachedStatement(sql: "DELETE FROM outcomes WHERE \(scope.condition)client_id = ?")
        for client in clients { try delete.execute(arguments: scope.arguments([client])) }
    }

    /// Keeps only the `keep` most recent outcomes of each clientId of `trims`.
    static func trimOutcomes(_ trims: [String: Int], in db: Database, scope: JournalScope) throws {
        guard !trims.isEmpty else { return }
        let trim = try db.cachedStatement(sql: """
            DELETE FROM outcomes WHERE seq IN
                (SELECT seq FROM outcomes WHERE \(scope.condition)client_id = ? ORDER BY seq DESC LIMIT -1 OFFSET ?)
            """)
        for (client, keep) in trims { try trim.execute(arguments: scope.arguments([client, max(1, keep)])) }
    }

    /// The clientIds with outcomes, least recently recorded first.
    static func outcomeClients(_ db: Database, scope: JournalScope) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT client_id FROM outcomes\(scope.whereClause) GROUP BY client_id ORDER BY max(seq)",
            arguments: scope.arguments())
    }

    /// A filter of every `(client_id, action_id)` pair of the outcomes table.
    static func outcomePairs(_ db: Database, scope: JournalScope) throws -> OutcomePairFilter {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM outcomes\(scope.whereClause)", arguments: scope.arguments()) ?? 0
        var filter = OutcomePairFilter(expectedPairs: count)
        let rows = try Row.fetchCursor(
            db, sql: "SELECT client_id, action_id FROM outcomes\(scope.whereClause)", arguments: scope.arguments())
        while let row = try rows.next() {
            filter.insert(clientID: row[0], actionID: row[1])
        }
        return filter
    }
}
