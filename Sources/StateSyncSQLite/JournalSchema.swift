import GRDB
import StateSyncJournal

/// The tables of a StateSync journal file and the checks that tell a fresh file, one of
/// ours and a foreign one apart (the stores' file: ``StoresSchema``). `statesync_meta` holds
/// the epoch; `journal.revision` is the rowid; `time_bits` is the IEEE 754 bit pattern of
/// `Meta.time`, which round-trips exactly where nanoseconds would not; `outcomes.seq` orders
/// each clientId's outcomes for retention. Files are marked with `application_id` `"SSyn"`
/// and `user_version`; a file of the version before is upgraded on open.
enum JournalSchema {
    /// `PRAGMA application_id` of a StateSync journal: the bytes "SSyn".
    static let applicationID: Int32 = 0x5353_796E

    /// Creates the schema of `kind` in a fresh file, or checks that an
    /// existing file is a journal of that kind this code can read; returns
    /// the file's epoch.
    static func prepare(_ db: Database, path: String, kind: JournalFileKind) throws -> String {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0 else {
                throw JournalError.notAJournal(
                    path, reason: "it is an SQLite database with \(tables) schema objects not created by StateSync")
            }
            return try create(db, kind: kind)
        }
        guard applicationID == Self.applicationID else {
            throw JournalError.notAJournal(
                path, reason: "it is an SQLite database of another application (application_id \(applicationID))")
        }
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        if version == kind.schemaVersion - 1 {
            try db.inTransaction(.immediate) {
                try db.execute(sql: kind.upgradeFromPrevious)
                return .commit
            }
        } else if version != kind.schemaVersion {
            throw JournalError.unsupportedSchema(path, version: version)
        }
        guard let epoch = try String.fetchOne(db, sql: "SELECT value FROM statesync_meta WHERE key = 'epoch'") else {
            throw JournalError.notAJournal(path, reason: "it has no epoch")
        }
        return epoch
    }

    /// Gives the file a new epoch (``DamagedJournalPolicy/newEpoch``), and
    /// every store of a stores' file one, and returns the file's.
    static func startNewEpoch(_ db: Database, kind: JournalFileKind) throws -> String {
        let epoch = Epoch.random()
        try db.execute(sql: "UPDATE statesync_meta SET value = ? WHERE key = 'epoch'", arguments: [epoch])
        if kind == .stores { try StoresSchema.startNewEpochs(db) }
        return epoch
    }

    private static func create(_ db: Database, kind: JournalFileKind) throws -> String {
        let epoch = Epoch.random()
        try db.inTransaction(.immediate) {
            try db.execute(sql: """
                CREATE TABLE statesync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                \(kind.tables)
                PRAGMA application_id = \(applicationID);
                PRAGMA user_version = \(kind.schemaVersion);
                """)
            try db.execute(sql: "INSERT INTO statesync_meta (key, value) VALUES ('epoch', ?)", arguments: [epoch])
            return .commit
        }
        return epoch
    }
}
