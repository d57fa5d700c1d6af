import Foundation
import GRDB

/// Side A: GRDB on the system's libsqlite3, used as `SQLiteJournal` uses it:
/// a `DatabasePool` (WAL, readers beside the writer), `synchronous = FULL`
/// set on the writer, cached prepared statements, one `inTransaction(.immediate)`
/// per group on the writer queue, each read one `await pool.read`.
struct GRDBEngine: JournalEngine {
    let pool: DatabasePool

    static func open(path: String, create: Bool) async throws -> GRDBEngine {
        var options = Configuration()
        options.label = "bench.grdb"
        options.maximumReaderCount = 2
        let pool = try DatabasePool(path: path, configuration: options)
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            guard try Int.fetchOne(db, sql: "PRAGMA synchronous") == 2 else {
                throw BenchmarkError(description: "GRDB: synchronous = FULL did not hold")
            }
            if create {
                try db.inTransaction(.immediate) {
                    for statement in JournalWorkload.schema { try db.execute(sql: statement) }
                    return .commit
                }
            }
        }
        return GRDBEngine(pool: pool)
    }

    func info() async throws -> EngineInfo {
        try await pool.writeWithoutTransaction { db in
            var pragmas: [String: String] = [:]
            for name in ["journal_mode", "synchronous", "page_size", "cache_size", "wal_autocheckpoint", "secure_delete"] {
                pragmas[name] = try String.fetchOne(db, sql: "PRAGMA \(name)") ?? "?"
            }
            return EngineInfo(
                version: try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?",
                compileOptions: try String.fetchAll(db, sql: "PRAGMA compile_options"),
                pragmas: pragmas)
        }
    }

    func commit(_ entries: [BenchEntry]) async throws {
        try await pool.writeWithoutTransaction { db in try Self.commit(entries, db) }
    }

    /// The same commit, blocking the calling thread (diagnostics only).
    func commitSynchronously(_ entries: [BenchEntry]) throws {
        try pool.writeWithoutTransaction { db in try Self.commit(entries, db) }
    }

    private static func commit(_ entries: [BenchEntry], _ db: Database) throws {
        try db.inTransaction(.immediate) {
                let insertEntry = try db.cachedStatement(sql: JournalWorkload.insertEntry)
                let insertOutcome = try db.cachedStatement(sql: JournalWorkload.insertOutcome)
                for entry in entries {
                    try insertEntry.execute(arguments: [
                        entry.revision, entry.timeBits, entry.clientID, entry.actionID, Data(entry.action),
                    ])
                    try insertOutcome.execute(arguments: [entry.clientID, entry.actionID, entry.revision, nil, nil])
                }
                try db.cachedStatement(sql: JournalWorkload.trimOutcomes)
                    .execute(arguments: [JournalWorkload.outcomeRetention])
                return .commit
        }
    }

    func outcomeRevision(clientID: String, actionID: String) async throws -> Int64? {
        try await pool.read { db in
            try Self.outcomeRevision(db, clientID: clientID, actionID: actionID)
        }
    }

    /// Reference only: all lookups inside one read, no thread hop per lookup
    /// (the engine's own cost; SQLiteNIO's documented API has no equivalent).
    func outcomeRevisionsInOneRead(_ pairs: [(String, String)]) async throws -> Int64 {
        let pairs = pairs.map { [$0.0, $0.1] }
        return try await pool.read { db in
            var sum: Int64 = 0
            for pair in pairs {
                sum &+= try Self.outcomeRevision(db, clientID: pair[0], actionID: pair[1]) ?? 0
            }
            return sum
        }
    }

    private static func outcomeRevision(_ db: Database, clientID: String, actionID: String) throws -> Int64? {
        let row = try Row.fetchOne(
            db.cachedStatement(sql: JournalWorkload.selectOutcome), arguments: [clientID, actionID])
        guard let row else { return nil }
        return row[0]
    }

    func entries(from: Int64, through: Int64) async throws -> [BenchEntry] {
        try await pool.read { db in
            let rows = try Row.fetchCursor(db, sql: JournalWorkload.selectEntries, arguments: [from, through])
            var entries: [BenchEntry] = []
            entries.reserveCapacity(Int(min(through - from, 4_095)) + 1)
            while let row = try rows.next() {
                let action: Data = row[4]
                entries.append(BenchEntry(
                    revision: row[0], timeBits: row[1], clientID: row[2], actionID: row[3], action: [UInt8](action)))
            }
            return entries
        }
    }

    /// Copies the WAL into the database file, so that readers start alike.
    func checkpoint() async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    func close() async throws {
        try pool.close()
    }
}
