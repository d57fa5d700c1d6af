import Foundation
import GRDB
import StateSyncCore
import StateSyncJournal

/// The SQL a journal runs, as synchronous functions on a GRDB `Database` over one
/// ``JournalScope``: the writer calls ``write(_:into:scope:retention:)`` in one transaction.
enum JournalStatements {
    // MARK: Writing

    /// Writes every batch and snapshot of a group inside the caller's transaction; after a
    /// snapshot, trims the journal and older snapshots to their retention.
    static func write(
        _ group: [GroupCommitQueue.Work], into db: Database, scope: JournalScope, retention: JournalRetention
    ) throws {
        var wroteSnapshot = false
        for work in group {
            switch work {
            case .batch(let batch, _):
                try forgetOutcomes(of: batch.forgottenClients, in: db, scope: scope)
                try write(batch, into: db, scope: scope)
                try trimOutcomes(batch.outcomeTrims, in: db, scope: scope)
            case .snapshot(let snapshot, _):
                try db.cachedStatement(sql: """
                    INSERT OR REPLACE INTO snapshots (\(scope.column)revision, state, schema_version)
                    VALUES (\(scope.placeholder)?, ?, ?)
                    """).execute(arguments: scope.arguments([Int64(snapshot.revision), Data(snapshot.state), snapshot.schemaVersion]))
                wroteSnapshot = true
            }
        }
        if wroteSnapshot { try applyRetention(retention, in: db, scope: scope) }
    }

    /// Writes one batch's entries and outcomes.
    private static func write(_ batch: JournalBatch, into db: Database, scope: JournalScope) throws {
        let insertEntry = try db.cachedStatement(sql: """
            INSERT INTO journal (\(scope.column)revision, time_bits, client_id, action_id, action, schema_version)
            VALUES (\(scope.placeholder)?, ?, ?, ?, ?, ?)
            """)
        let insertOutcome = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO outcomes (\(scope.column)client_id, action_id, revision, code, message)
            VALUES (\(scope.placeholder)?, ?, ?, ?, ?)
            """)
        for entry in batch.entries {
            try insertEntry.execute(arguments: scope.arguments([
                Int64(entry.revision), StoredTime.bits(entry.meta.time), entry.meta.clientID, entry.actionID,
                Data(entry.action), entry.schemaVersion,
            ]))
            if let key = entry.outcomeKey {
                try insertOutcome.execute(arguments: scope.arguments([key.clientID, key.actionID, Int64(entry.revision), nil, nil]))
            }
        }
        for rejection in batch.rejections {
            try insertOutcome.execute(arguments: scope.arguments([
                rejection.clientID, rejection.actionID, nil, rejection.code, rejection.message,
            ]))
        }
    }

    // MARK: Reading

    /// The highest revision in the journal (0 when empty).
    static func lastRevision(_ db: Database, scope: JournalScope) throws -> UInt64 {
        UInt64(try Int64.fetchOne(db, sql: "SELECT max(revision) FROM journal\(scope.whereClause)", arguments: scope.arguments()) ?? 0)
    }

    /// The lowest revision in the journal, `nil` when empty.
    static func oldestRevision(_ db: Database, scope: JournalScope) throws -> UInt64? {
        try Int64.fetchOne(db, sql: "SELECT min(revision) FROM journal\(scope.whereClause)", arguments: scope.arguments())
            .map { UInt64($0) }
    }

    /// The revisions of the snapshots, ascending.
    static func snapshotRevisions(_ db: Database, scope: JournalScope) throws -> [UInt64] {
        try Int64.fetchAll(
            db, sql: "SELECT revision FROM snapshots\(scope.whereClause) ORDER BY revision", arguments: scope.arguments()
        ).map { UInt64($0) }
    }

    /// The entries with revisions in `from...through`, in order.
    static func entries(_ db: Database, scope: JournalScope, from: UInt64, through: UInt64) throws -> [JournalEntry] {
        let lower = Int64(clamping: from)
        let upper = Int64(clamping: through)
        guard lower <= upper else { return [] }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT revision, time_bits, client_id, action_id, action, schema_version FROM journal
                WHERE \(scope.condition)revision BETWEEN ? AND ? ORDER BY revision
                """,
            arguments: scope.arguments([lower, upper]))
        var entries: [JournalEntry] = []
        entries.reserveCapacity(Int(min(UInt64(upper - lower), 4_095)) + 1)
        while let row = try rows.next() {
            let revision: Int64 = row[0]
            let bits: Int64 = row[1]
            let action: Data = row[4]
            let meta = Meta(revision: UInt64(revision), clientID: row[2], time: StoredTime.date(fromBits: bits))
            entries.append(JournalEntry(meta: meta, actionID: row[3], action: [UInt8](action), schemaVersion: row[5]))
        }
        return entries
    }

    /// The latest snapshot at or before `revision`.
    static func snapshot(_ db: Database, scope: JournalScope, atOrBefore revision: UInt64) throws -> JournalSnapshot? {
        // A cursor's row reads the statement's columns in place: the state
        // (megabytes for a big store) is copied once, into the snapshot.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT revision, state, schema_version FROM snapshots
                WHERE \(scope.condition)revision <= ? ORDER BY revision DESC LIMIT 1
                """,
            arguments: scope.arguments([Int64(clamping: revision)]))
        guard let row = try rows.next() else { return nil }
        let revision: Int64 = row[0]
        let state = try row.withUnsafeData(atIndex: 1) { data in data.map { [UInt8]($0) } ?? [] }
        return JournalSnapshot(revision: UInt64(revision), state: state, schemaVersion: row[2])
    }

    /// The remembered outcome of a pair.
    static func outcome(_ db: Database, scope: JournalScope, clientID: String, actionID: String) throws -> JournalOutcome? {
        let row = try Row.fetchOne(
            db, sql: "SELECT revision, code, message FROM outcomes WHERE \(scope.condition)client_id = ? AND action_id = ?",
            arguments: scope.arguments([clientID, actionID]))
        guard let row else { return nil }
        if let revision: Int64 = row[0] { return .accepted(revision: UInt64(revision)) }
        return .rejected(code: row[1] ?? "", message: row[2] ?? "")
    }
}
