import GRDB
import StateSyncJournal

extension JournalStatements {
    /// After a snapshot: deletes the entries beyond `retention` and thins the snapshots before
    /// the kept entries (``RetentionPlan``), in the snapshot's transaction. The newest entry is
    /// never deleted, so the journal's last revision survives.
    static func applyRetention(_ retention: JournalRetention, in db: Database, scope: JournalScope) throws {
        let snapshots = try snapshotRevisions(db, scope: scope)
        guard let newest = snapshots.last else { return }
        let byRevisions = RetentionPlan.cutoff(newest: newest, revisions: retention.revisions)
        let byBytes = try bytesCutoff(db, scope: scope, newest: newest, above: byRevisions, budget: retention.bytes)
        let keepFrom = RetentionPlan.keepFrom(snapshots: snapshots, cutoff: max(byRevisions, byBytes))
        try db.cachedStatement(sql: "DELETE FROM journal WHERE \(scope.condition)revision < ?")
            .execute(arguments: scope.arguments([Int64(clamping: keepFrom)]))
        let kept = Set(RetentionPlan.thinned(snapshots, below: keepFrom, keeping: retention.olderSnapshots))
        let deleteSnapshot = try db.cachedStatement(sql: "DELETE FROM snapshots WHERE \(scope.condition)revision = ?")
        for revision in snapshots where !kept.contains(revision) {
            try deleteSnapshot.execute(arguments: scope.arguments([Int64(clamping: revision)]))
        }
    }

    /// The newest revision at or below `newest` from which the entries up to `newest` exceed
    /// `budget` bytes (0 when all above `above` fit); reads newest first and stops there.
    private static func bytesCutoff(
        _ db: Database, scope: JournalScope, newest: UInt64, above: UInt64, budget: Int
    ) throws -> UInt64 {
        let rows = try Row.fetchCursor(
            db, sql: """
                SELECT revision, length(action) FROM journal
                WHERE \(scope.condition)revision > ? AND revision <= ? ORDER BY revision DESC
                """,
            arguments: scope.arguments([Int64(clamping: above), Int64(clamping: newest)]))
        var total = 0
        while let row = try rows.next() {
            let length: Int = row[1]
            total += length
            if total > budget {
                let revision: Int64 = row[0]
                return UInt64(revision)
            }
        }
        return 0
    }

    /// The number of entries and their action bytes (for `statesync verify`).
    static func entryTotals(_ db: Database, scope: JournalScope) throws -> (count: Int, bytes: Int) {
        let row = try Row.fetchOne(
            db, sql: "SELECT count(*), coalesce(sum(length(action)), 0) FROM journal\(scope.whereClause)",
            arguments: scope.arguments())
        return (row?[0] ?? 0, row?[1] ?? 0)
    }
}
