import GRDB

/// The two kinds of journal file in a data directory: `main`'s (``SQLiteJournal``) and the
/// one every other store shares (``SQLiteStores``), each with its own lock, durable record
/// and schema version. The record counts what only grows while the file is intact: the last
/// revision, or for the shared file its committed transactions (a deleted store's
/// revisions go with it).
enum JournalFileKind: Sendable, Hashable {
    /// `statesync.sqlite`: the journal of one store, `main`.
    case oneStore
    /// `stores.sqlite`: every store other than `main`, keyed by store.
    case stores

    /// `PRAGMA user_version` of the kind's schema: 2 and 1,002 record each
    /// entry's and snapshot's app schema version (`schema_version`).
    var schemaVersion: Int {
        switch self {
        case .oneStore: 2
        case .stores: 1_002
        }
    }

    /// The statements that bring a file of the version before
    /// ``schemaVersion`` to it: the `schema_version` columns, 1 for every
    /// row written before (an app's first version), and the new version.
    var upgradeFromPrevious: String {
        """
        ALTER TABLE journal ADD COLUMN schema_version INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE snapshots ADD COLUMN schema_version INTEGER NOT NULL DEFAULT 1;
        PRAGMA user_version = \(schemaVersion);
        """
    }

    /// The lock file's name in the data directory (see ``DataDirectory``).
    var lockFileName: String {
        switch self {
        case .oneStore: "statesync.lock"
        case .stores: "stores.lock"
        }
    }

    /// The durable record's name in the data directory (see ``DurableRecord``).
    var recordFileName: String {
        switch self {
        case .oneStore: "statesync.durable"
        case .stores: "stores.durable"
        }
    }

    /// What the durable record counts, in words: `revision` or `commit`.
    var counted: String {
        switch self {
        case .oneStore: "revision"
        case .stores: "commit"
        }
    }

    /// The count the durable record is compared with, as the file has it.
    func durableCount(_ db: Database) throws -> UInt64 {
        switch self {
        case .oneStore: try JournalStatements.lastRevision(db, scope: .wholeFile)
        case .stores: try StoresSchema.commits(db)
        }
    }

    /// The tables of a new file of this kind.
    var tables: String {
        switch self {
        case .oneStore:
            """
            CREATE TABLE journal (
                revision INTEGER PRIMARY KEY,
                time_bits INTEGER NOT NULL,
                client_id TEXT,
                action_id TEXT,
                action BLOB NOT NULL,
                schema_version INTEGER NOT NULL DEFAULT 1
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
            CREATE TABLE snapshots (revision INTEGER PRIMARY KEY, state BLOB NOT NULL, schema_version INTEGER NOT NULL DEFAULT 1);
            """
        case .stores:
            StoresSchema.tables
        }
    }
}
