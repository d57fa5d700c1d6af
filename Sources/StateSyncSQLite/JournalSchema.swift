import GRDB
import StateSyncJournal

/// The tables of a StateSync journal file and the checks that tell a fresh
/// file, one of ours, and a foreign one apart.
///
/// - `statesync_meta(key, value)`: the epoch.
/// - `journal(revision, time_bits, client_id, action_id, action)`: accepted
///   actions; `revision` is the rowid, so revisions are unique and reads by
///   range are index seeks. `time_bits` is the IEEE 754 bit pattern of
///   `Meta.time.timeIntervalSinceReferenceDate`, which round-trips exactly
///   (integer nanoseconds would not: a `Double` near 2026 has ~119 ns steps
///   that a decimal nanosecond count does not map back to bit for bit).
/// - `outcomes(seq, client_id, action_id, revision, code, message)`: one row
///   per pair, `seq` in insertion order for each clientId's retention.
/// - `snapshots(revision, state)`: the last few full states.
///
/// The file is marked with `PRAGMA application_id` (`"SSyn"`) and
/// `PRAGMA user_version` (the schema version).
enum JournalSchema {
    /// `PRAGMA application_id` of a StateSync journal: the bytes "SSyn".
    static let applicationID: Int32 = 0x5353_796E
    /// The schema version this code writes and reads.
    static let version = 1

    /// Creates the schema in a fresh file, or checks that an existing file is
    /// a journal this code can read; returns the epoch.
    static func prepare(_ db: Database, path: String) throws -> String {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0 else {
                throw JournalError.notAJournal(
                    path, reason: "it is an SQLite database with \(tables) schema objects not created by StateSync")
            }
            return try create(db)
        }
        guard applicationID == Self.applicationID else {
            throw JournalError.notAJournal(
                path, reason: "it is an SQLite database of another application (application_id \(applicationID))")
        }
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version == Self.version else { throw JournalError.unsupportedSchema(path, version: version) }
        guard let epoch = try String.fetchOne(db, sql: "SELECT value FROM statesync_meta WHERE key = 'epoch'") else {
            throw JournalError.notAJournal(path, reason: "it has no epoch")
        }
        return epoch
    }

    /// Gives the journal a new epoch (``DamagedJournalPolicy/newEpoch``)
    /// and returns it.
    static func startNewEpoch(_ db: Database) throws -> String {
        let epoch = Epoch.random()
        try db.execute(sql: "UPDATE statesync_meta SET value = ? WHERE key = 'epoch'", arguments: [epoch])
        return epoch
    }

    private static func create(_ db: Database) throws -> String {
        let epoch = Epoch.random()
        try db.inTransaction(.immediate) {
            try db.execute(sql: """
                CREATE TABLE statesync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE journal (
                    revision INTEGER PRIMARY KEY,
                    time_bits INTEGER NOT NULL,
                    client_id TEXT,
                    action_id TEXT,
                    action BLOB NOT NULL
                );
                CREATE TABLE outcomes (
                    seq INTEGER PRIMARY KEY,
                    client_id TEXT NOT NULL,
                    action_id TEXT NOT NULL,
                    revision INTEGER,
                    code TEXT,
                    message TEXT,
                    UNIQUE (client_id, action_id)
                );
                CREATE TABLE snapshots (revision INTEGER PRIMARY KEY, state BLOB NOT NULL);
                PRAGMA application_id = \(applicationID);
                PRAGMA user_version = \(version);
                """)
            try db.execute(sql: "INSERT INTO statesync_meta (key, value) VALUES ('epoch', ?)", arguments: [epoch])
            return .commit
        }
        return epoch
    }
}
