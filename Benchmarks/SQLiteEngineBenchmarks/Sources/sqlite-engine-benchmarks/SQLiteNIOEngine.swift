import Logging
import NIOCore
import NIOPosix
import SQLiteNIO

/// Side B: vapor/sqlite-nio, which compiles its own SQLite amalgamation, used
/// through its documented async API: one `SQLiteConnection` for the writer
/// and one for reads, each `query` one hop to the `NIOThreadPool` (the
/// statement is prepared, run and finalized there: SQLiteNIO caches none).
///
/// A straight port of `JournalStatements.write`: `BEGIN IMMEDIATE`, one
/// `query` per row, the trim, `COMMIT`.
struct SQLiteNIOEngine: JournalEngine {
    let connection: SQLiteConnection

    static func open(path: String, create: Bool) async throws -> SQLiteNIOEngine {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path), threadPool: .singleton,
            logger: Logger(label: "bench.sqlite-nio", factory: { _ in SwiftLogNoOpLogHandler() }),
            on: MultiThreadedEventLoopGroup.singleton.any())
        let mode = try await connection.query("PRAGMA journal_mode = WAL").first?.columns.first?.data.string
        guard mode == "wal" else { throw BenchmarkError(description: "SQLiteNIO: journal_mode is \(mode ?? "?")") }
        _ = try await connection.query("PRAGMA synchronous = FULL")
        guard try await connection.query("PRAGMA synchronous").first?.columns.first?.data.integer == 2 else {
            throw BenchmarkError(description: "SQLiteNIO: synchronous = FULL did not hold")
        }
        let engine = SQLiteNIOEngine(connection: connection)
        if create {
            try await engine.inTransaction {
                for statement in JournalWorkload.schema { _ = try await connection.query(statement) }
            }
        }
        return engine
    }

    func info() async throws -> EngineInfo {
        var pragmas: [String: String] = [:]
        for name in ["journal_mode", "synchronous", "page_size", "cache_size", "wal_autocheckpoint", "secure_delete"] {
            pragmas[name] = try await connection.query("PRAGMA \(name)").first?.columns.first?.data.description ?? "?"
        }
        return EngineInfo(
            version: try await connection.query("SELECT sqlite_version()").first?.columns.first?.data.string ?? "?",
            compileOptions: try await connection.query("PRAGMA compile_options").compactMap {
                $0.columns.first?.data.string
            },
            pragmas: pragmas)
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT` (`ROLLBACK` on error).
    func inTransaction(_ body: () async throws -> Void) async throws {
        _ = try await connection.query("BEGIN IMMEDIATE")
        do {
            try await body()
            _ = try await connection.query("COMMIT")
        } catch {
            _ = try? await connection.query("ROLLBACK")  // the body's error is the one to report
            throw error
        }
    }

    func commit(_ entries: [BenchEntry]) async throws {
        try await inTransaction {
            for entry in entries {
                _ = try await connection.query(JournalWorkload.insertEntry, Self.entryBinds(entry))
                _ = try await connection.query(JournalWorkload.insertOutcome, Self.outcomeBinds(entry))
            }
            _ = try await connection.query(
                JournalWorkload.trimOutcomes, [.integer(SQLiteInt64(JournalWorkload.outcomeRetention))])
        }
    }

    static func entryBinds(_ entry: BenchEntry) -> [SQLiteData] {
        [
            .integer(SQLiteInt64(entry.revision)), .integer(SQLiteInt64(entry.timeBits)),
            entry.clientID.map { .text($0) } ?? .null, entry.actionID.map { .text($0) } ?? .null,
            .blob(ByteBuffer(bytes: entry.action)),
        ]
    }

    static func outcomeBinds(_ entry: BenchEntry) -> [SQLiteData] {
        [.text(entry.clientID ?? ""), .text(entry.actionID ?? ""), .integer(SQLiteInt64(entry.revision)), .null, .null]
    }

    func outcomeRevision(clientID: String, actionID: String) async throws -> Int64? {
        let rows = try await connection.query(JournalWorkload.selectOutcome, [.text(clientID), .text(actionID)])
        guard let row = rows.first else { return nil }
        return row.columns[0].data.integer.map { Int64($0) }
    }

    func entries(from: Int64, through: Int64) async throws -> [BenchEntry] {
        let rows = try await connection.query(
            JournalWorkload.selectEntries, [.integer(SQLiteInt64(from)), .integer(SQLiteInt64(through))])
        return rows.map { row in
            let columns = row.columns
            return BenchEntry(
                revision: Int64(columns[0].data.integer ?? 0),
                timeBits: Int64(columns[1].data.integer ?? 0),
                clientID: columns[2].data.string,
                actionID: columns[3].data.string,
                action: columns[4].data.blob.map { Array($0.readableBytesView) } ?? [])
        }
    }

    func close() async throws {
        try await connection.close()
    }
}

/// Side B with the writes rewritten for SQLiteNIO: one multi-row `INSERT`
/// per table per group (two queries instead of 2 × N), the best a port could
/// do without a statement cache.
struct SQLiteNIOMultiRowEngine: JournalEngine {
    let base: SQLiteNIOEngine

    static func open(path: String, create: Bool) async throws -> SQLiteNIOMultiRowEngine {
        SQLiteNIOMultiRowEngine(base: try await SQLiteNIOEngine.open(path: path, create: create))
    }

    func info() async throws -> EngineInfo { try await base.info() }

    func commit(_ entries: [BenchEntry]) async throws {
        let connection = base.connection
        try await base.inTransaction {
            _ = try await connection.query(
                JournalWorkload.multiRowInsert(
                    "INSERT INTO journal (revision, time_bits, client_id, action_id, action)",
                    columns: 5, rows: entries.count),
                entries.flatMap(SQLiteNIOEngine.entryBinds))
            _ = try await connection.query(
                JournalWorkload.multiRowInsert(
                    "INSERT OR IGNORE INTO outcomes (client_id, action_id, revision, code, message)",
                    columns: 5, rows: entries.count),
                entries.flatMap(SQLiteNIOEngine.outcomeBinds))
            _ = try await connection.query(
                JournalWorkload.trimOutcomes, [.integer(SQLiteInt64(JournalWorkload.outcomeRetention))])
        }
    }

    func outcomeRevision(clientID: String, actionID: String) async throws -> Int64? {
        try await base.outcomeRevision(clientID: clientID, actionID: actionID)
    }

    func entries(from: Int64, through: Int64) async throws -> [BenchEntry] {
        try await base.entries(from: from, through: through)
    }

    func close() async throws { try await base.close() }
}
