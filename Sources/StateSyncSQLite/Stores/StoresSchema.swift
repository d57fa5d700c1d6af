import GRDB
import StateSyncJournal

/// The tables of `stores.sqlite` (``SQLiteStores``), beside ``JournalSchema``'s meta table:
/// `stores(id, name, epoch)`, the catalog; `journal`, `outcomes` and `snapshots` as in a
/// one-store file with a leading `store_id` (`journal` is `WITHOUT ROWID`, so an insert writes
/// one b-tree); and `commits` in `statesync_meta`, which the durable record follows.
enum StoresSchema {
    /// The tables of a new file.
    static let tables = """
        CREATE TABLE stores (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, epoch TEXT NOT NULL);
        CREATE TABLE journal (
            store_id INTEGER NOT NULL,
            revision INTEGER NOT NULL,
            time_bits INTEGER NOT NULL,
            client_id TEXT,
            action_id TEXT,
            action BLOB NOT NULL,
            schema_version INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (store_id, revision)
        ) WITHOUT ROWID;
        CREATE TABLE outcomes (
            seq INTEGER PRIMARY KEY,
            store_id INTEGER NOT NULL,
            client_id TEXT NOT NULL,
            action_id TEXT NOT NULL,
            revision INTEGER,
            code TEXT,
            message TEXT,
            UNIQUE (store_id, client_id, action_id)
        );
        CREATE TABLE snapshots (
            store_id INTEGER NOT NULL,
            revision INTEGER NOT NULL,
            state BLOB NOT NULL,
            schema_version INTEGER NOT NULL DEFAULT 1,
            PRIMARY KEY (store_id, revision)
        );
        INSERT INTO statesync_meta (key, value) VALUES ('commits', '0');
        """

    /// The number of transactions committed to the file.
    static func commits(_ db: Database) throws -> UInt64 {
        let text = try String.fetchOne(db, sql: "SELECT value FROM statesync_meta WHERE key = 'commits'")
        return text.flatMap { UInt64($0) } ?? 0
    }

    /// Sets the number of transactions committed (inside each transaction).
    static func setCommits(_ count: UInt64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE statesync_meta SET value = ? WHERE key = 'commits'")
            .execute(arguments: [String(count)])
    }

    /// Every store's name and id, in name order.
    static func catalog(_ db: Database) throws -> [(name: String, id: Int64)] {
        try Row.fetchAll(db, sql: "SELECT name, id FROM stores ORDER BY name").map { ($0[0], $0[1]) }
    }

    /// The catalog of which stores exist, read from the file.
    static func storeCatalog(_ db: Database) throws -> StoreCatalog {
        var catalog = StoreCatalog(largestID: try Int64.fetchOne(db, sql: "SELECT max(id) FROM stores") ?? 0)
        let names = try String.fetchCursor(db, sql: "SELECT name FROM stores")
        while let name = try names.next() { catalog.add(existing: name) }
        return catalog
    }

    /// Every store's name, in no order.
    static func names(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM stores")
    }

    /// Up to `limit` names after `after` (all when `nil`), in ascending
    /// order of their bytes, read through the names' unique index.
    static func names(_ db: Database, after: String?, limit: Int) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT name FROM stores WHERE name > ? ORDER BY name LIMIT ?", arguments: [after ?? "", max(0, limit)])
    }

    /// The id and epoch of the store `name`, if it exists.
    static func row(ofStore name: String, in db: Database) throws -> (id: Int64, epoch: String)? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT id, epoch FROM stores WHERE name = ?"), arguments: [name])
            .map { ($0[0], $0[1]) }
    }

    /// The epoch of the store `id`.
    static func epoch(ofStore id: Int64, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT epoch FROM stores WHERE id = ?", arguments: [id])
    }

    /// Adds the store `name` with id `id` and epoch `epoch`.
    static func create(_ name: String, id: Int64, epoch: String, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO stores (id, name, epoch) VALUES (?, ?, ?)")
            .execute(arguments: [id, name, epoch])
    }

    /// Deletes every row of the store `id`, its catalog row included.
    static func remove(store id: Int64, in db: Database) throws {
        for table in ["journal", "outcomes", "snapshots"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE store_id = ?").execute(arguments: [id])
        }
        try db.cachedStatement(sql: "DELETE FROM stores WHERE id = ?").execute(arguments: [id])
    }

    /// Gives every store a new epoch (``DamagedJournalPolicy/newEpoch``).
    static func startNewEpochs(_ db: Database) throws {
        let update = try db.cachedStatement(sql: "UPDATE stores SET epoch = ? WHERE id = ?")
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM stores") {
            try update.execute(arguments: [Epoch.random(), id])
        }
    }
}

extension StoresSchema {
    /// The bytes of the store `id`'s rows, as ``SQLiteStores/storedBytes(of:)`` counts them.
    static func storedBytes(ofStore id: Int64, in db: Database) throws -> Int {
        let sql = """
            SELECT
                (SELECT coalesce(sum(length(action) + coalesce(length(client_id), 0) + coalesce(length(action_id), 0) + 16), 0)
                    FROM journal WHERE store_id = ?1)
                + (SELECT coalesce(sum(length(state) + 16), 0) FROM snapshots WHERE store_id = ?1)
                + (SELECT coalesce(sum(length(client_id) + length(action_id) + coalesce(length(code), 0)
                    + coalesce(length(message), 0) + 16), 0) FROM outcomes WHERE store_id = ?1)
            """
        return try Int.fetchOne(db, sql: sql, arguments: [id]) ?? 0
    }
}
