import Foundation

/// The journal's tables and write pattern, shared by both sides so that they
/// run the same SQL. The statements are copied from
/// `Sources/StateSyncSQLite/JournalSchema.swift` and
/// `JournalStatements.swift` (internal there); keep them in step.
enum JournalWorkload {
    /// `JournalSchema.create`, one statement per element (SQLiteNIO's `query`
    /// compiles only the first statement of a string).
    static let schema = [
        "CREATE TABLE statesync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        """
        CREATE TABLE journal (
            revision INTEGER PRIMARY KEY,
            time_bits INTEGER NOT NULL,
            client_id TEXT,
            action_id TEXT,
            action BLOB NOT NULL
        )
        """,
        """
        CREATE TABLE outcomes (
            seq INTEGER PRIMARY KEY,
            client_id TEXT NOT NULL,
            action_id TEXT NOT NULL,
            revision INTEGER,
            code TEXT,
            message TEXT,
            UNIQUE (client_id, action_id)
        )
        """,
        "CREATE TABLE snapshots (revision INTEGER PRIMARY KEY, state BLOB NOT NULL)",
        "PRAGMA application_id = 1397971310",
        "PRAGMA user_version = 1",
        "INSERT INTO statesync_meta (key, value) VALUES ('epoch', 'bench')",
    ]

    static let insertEntry =
        "INSERT INTO journal (revision, time_bits, client_id, action_id, action) VALUES (?, ?, ?, ?, ?)"
    static let insertOutcome =
        "INSERT OR IGNORE INTO outcomes (client_id, action_id, revision, code, message) VALUES (?, ?, ?, ?, ?)"
    /// The retention trim that `JournalStatements.write` runs once per group.
    static let trimOutcomes = "DELETE FROM outcomes WHERE seq <= (SELECT max(seq) FROM outcomes) - ?"
    /// `SQLiteJournal.Configuration.outcomeRetention`'s default.
    static let outcomeRetention = 100_000

    static let selectOutcome = "SELECT revision, code, message FROM outcomes WHERE client_id = ? AND action_id = ?"
    static let selectEntries = """
        SELECT revision, time_bits, client_id, action_id, action FROM journal
        WHERE revision BETWEEN ? AND ? ORDER BY revision
        """

    /// The client every benchmark entry comes from.
    static let clientID = "c-bench"

    /// `INSERT` of `rows` rows of `columns` placeholders in one statement.
    static func multiRowInsert(_ prefix: String, columns: Int, rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
        return prefix + " VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Entries `after+1 ... after+size`, ~200 bytes of action JSON each, as
    /// in `journal-benchmarks`.
    static func batch(after revision: Int64, size: Int) -> [BenchEntry] {
        let padding = String(repeating: "x", count: 170)
        let timeBits = Int64(bitPattern: Date().timeIntervalSinceReferenceDate.bitPattern)
        return (1...Int64(size)).map { offset in
            let revision = revision + offset
            return BenchEntry(
                revision: revision, timeBits: timeBits, clientID: clientID, actionID: "a\(revision)",
                action: Array(#"{"type":"say","text":"\#(padding)","n":\#(revision)}"#.utf8))
        }
    }
}

/// One journal row, decoded as `JournalStatements.entries` decodes it.
struct BenchEntry: Sendable {
    var revision: Int64
    var timeBits: Int64
    var clientID: String?
    var actionID: String?
    var action: [UInt8]
}

/// What one SQLite library reports about itself.
struct EngineInfo: Sendable {
    var version: String
    var compileOptions: [String]
    var pragmas: [String: String]
}

/// One library driving the journal's workload. Writers and readers are
/// opened on a file, used from one task at a time, and closed.
protocol JournalEngine: Sendable {
    /// Opens `path` (creating the schema when `create`) in WAL mode with
    /// `synchronous = FULL`.
    static func open(path: String, create: Bool) async throws -> Self
    /// The library's version, compile options and the pragmas in force.
    func info() async throws -> EngineInfo
    /// Appends `entries` (and an outcome for each) in one transaction, then
    /// trims outcomes, as `SQLiteJournal`'s writer commits one group.
    func commit(_ entries: [BenchEntry]) async throws
    /// The remembered outcome's revision of a pair, as `SQLiteJournal.outcome`.
    func outcomeRevision(clientID: String, actionID: String) async throws -> Int64?
    /// The entries `from...through`, decoded, as `SQLiteJournal.entries`.
    func entries(from: Int64, through: Int64) async throws -> [BenchEntry]
    func close() async throws
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}
