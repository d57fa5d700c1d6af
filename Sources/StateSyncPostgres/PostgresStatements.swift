import Foundation
import Logging
import NIOCore
import PostgresNIO
import StateSyncCore
import StateSyncJournal

/// The SQL of a ``PostgresJournal``'s writes: rows go in as arrays expanded by `unnest`,
/// so a group commit costs the same round trips for one action or a thousand. Optional
/// ids go as text plus a "present" flag, since postgres-nio arrays hold no `NULL`.
enum PostgresStatements {
    /// Inserts the journal rows of `entries` (the caller's transaction has
    /// already moved the head over their revisions).
    static func insert(_ entries: [JournalEntry], store: String, on connection: TimedConnection, logger: Logger) async throws {
        try await connection.run("""
            INSERT INTO statesync_journal (store_id, revision, time_bits, client_id, action_id, action, schema_version)
            SELECT \(store), r, t, CASE WHEN hc THEN c END, CASE WHEN ha THEN a END, x, v
              FROM unnest(\(entries.map { Int64($0.revision) }), \(entries.map { StoredTime.bits($0.meta.time) }),
                          \(entries.map { $0.meta.clientID != nil }), \(entries.map { $0.meta.clientID ?? "" }),
                          \(entries.map { $0.actionID != nil }), \(entries.map { $0.actionID ?? "" }),
                          \(entries.map { ByteBuffer(bytes: $0.action) }), \(entries.map { Int32(clamping: $0.schemaVersion) }))
                AS u(r, t, hc, c, ha, a, x, v)
            """, logger: logger)
    }

    /// Records each accepted pair and rejection of a batch; returns how many pairs already
    /// had an outcome (decided by another node: the caller must roll the transaction back).
    static func record(_ batch: JournalBatch, store: String, on connection: TimedConnection, logger: Logger) async throws -> Int {
        let accepted = batch.entries.compactMap { entry -> (String, String, Int64)? in
            guard let client = entry.meta.clientID, let action = entry.actionID else { return nil }
            return (client, action, Int64(entry.revision))
        }
        var decidedBefore = 0
        if !accepted.isEmpty {
            let inserted = try await connection.run("""
                INSERT INTO statesync_outcomes (store_id, client_id, action_id, revision)
                SELECT \(store), c, a, r FROM unnest(\(accepted.map(\.0)), \(accepted.map(\.1)), \(accepted.map(\.2))) AS u(c, a, r)
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            decidedBefore += accepted.count - inserted.count
        }
        if !batch.rejections.isEmpty {
            let rejections = batch.rejections
            let inserted = try await connection.run("""
                INSERT INTO statesync_outcomes (store_id, client_id, action_id, code, message)
                SELECT \(store), c, a, k, m
                  FROM unnest(\(rejections.map(\.clientID)), \(rejections.map(\.actionID)),
                              \(rejections.map(\.code)), \(rejections.map(\.message))) AS u(c, a, k, m)
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            decidedBefore += rejections.count - inserted.count
        }
        return decidedBefore
    }
}
