import Logging
import PostgresNIO
import StateSyncJournal

/// The StateSync tables in PostgreSQL and their versions. `statesync_schema` holds the
/// version; opening a journal migrates up to ``version`` in one transaction under an
/// advisory lock (nodes starting together migrate once), and refuses a newer database.
/// Migrations are only ever appended to ``migrations``, never edited. Every table is keyed
/// by `store_id` (``PostgresStores/storeID(of:)``): stores, journal, snapshots, outcomes
/// (1); nodes and presence (2, ``PostgresPresence``); outcome clients (3,
/// ``PostgresOutcomeClients``); leases and the cluster secret (4, ``PostgresLeases``).
enum PostgresSchema {
    /// The version this code reads and writes.
    static let version = migrations.count

    /// Migration *n* (1-based) brings the tables from version *n − 1* to *n*.
    /// One statement per string (the extended protocol runs one at a time).
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE statesync_stores (
                store_id text PRIMARY KEY,
                epoch text NOT NULL,
                head_revision bigint NOT NULL CHECK (head_revision >= 0)
            )
            """,
            """
            CREATE TABLE statesync_journal (
                store_id text NOT NULL REFERENCES statesync_stores (store_id),
                revision bigint NOT NULL CHECK (revision > 0),
                time_bits bigint NOT NULL,
                client_id text,
                action_id text,
                action bytea NOT NULL,
                PRIMARY KEY (store_id, revision)
            )
            """,
            """
            CREATE TABLE statesync_snapshots (
                store_id text NOT NULL REFERENCES statesync_stores (store_id),
                revision bigint NOT NULL CHECK (revision >= 0),
                state bytea NOT NULL,
                PRIMARY KEY (store_id, revision)
            )
            """,
            """
            CREATE TABLE statesync_outcomes (
                store_id text NOT NULL REFERENCES statesync_stores (store_id),
                client_id text NOT NULL,
                action_id text NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                revision bigint,
                code text,
                message text,
                PRIMARY KEY (store_id, client_id, action_id)
            )
            """,
        ],
        [
            """
            CREATE TABLE statesync_nodes (
                store_id text NOT NULL REFERENCES statesync_stores (store_id),
                node_id text NOT NULL,
                started_at timestamptz NOT NULL DEFAULT now(),
                heartbeat_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (store_id, node_id)
            )
            """,
            """
            CREATE TABLE statesync_presence (
                store_id text NOT NULL REFERENCES statesync_stores (store_id),
                session_id text NOT NULL,
                node_id text NOT NULL,
                name text NOT NULL,
                adopted_at timestamptz,
                PRIMARY KEY (store_id, session_id)
            )
            """,
            "CREATE INDEX statesync_presence_by_node ON statesync_presence (store_id, node_id)",
        ],
        [
            """
            CREATE TABLE statesync_outcome_clients (
                store_id text NOT NULL REFERENCES statesync_stores (store_id),
                client_id text NOT NULL,
                last_used timestamptz NOT NULL,
                PRIMARY KEY (store_id, client_id)
            )
            """,
            "CREATE INDEX statesync_outcome_clients_by_use ON statesync_outcome_clients (store_id, last_used)",
            """
            INSERT INTO statesync_outcome_clients (store_id, client_id, last_used)
            SELECT store_id, client_id, now() FROM statesync_outcomes GROUP BY store_id, client_id
            """,
        ],
        [
            """
            CREATE TABLE statesync_leases (
                store_id text PRIMARY KEY REFERENCES statesync_stores (store_id),
                node_id text NOT NULL,
                address text,
                term bigint NOT NULL CHECK (term > 0),
                expires_at timestamptz NOT NULL
            )
            """,
            """
            CREATE TABLE statesync_cluster (
                id integer PRIMARY KEY CHECK (id = 1),
                secret text NOT NULL
            )
            """,
        ],
        [
            // The app's schema version each entry and snapshot was written with; 1 for the rows before.
            "ALTER TABLE statesync_journal ADD COLUMN schema_version integer NOT NULL DEFAULT 1",
            "ALTER TABLE statesync_snapshots ADD COLUMN schema_version integer NOT NULL DEFAULT 1",
        ],
    ]

    /// An arbitrary constant naming the advisory lock that serializes migrations.
    private static let migrationLock: Int64 = 0x5374_6174_6553_796E

    /// Creates or migrates the tables to ``version``.
    ///
    /// - Throws: ``JournalError``: the database is at a newer version, or a statement failed.
    static func prepare(_ connection: TimedConnection, server: String, logger: Logger) async throws {
        try await connection.run("BEGIN", logger: logger)
        do {
            // Another node's migration, or its writers, may hold the locks for longer than the
            // session's lock timeout (PostgresSessionBounds): the wait is bounded by the open deadline instead.
            let openTimeout = connection.timeout.nanoseconds / 1_000_000
            try await connection.run(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(openTimeout)"), logger: logger)
            try await connection.run("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.run(
                "CREATE TABLE IF NOT EXISTS statesync_schema (version integer NOT NULL)", logger: logger)
            var current = 0
            for found in try await connection.run("SELECT version FROM statesync_schema", logger: logger)
                .decode(Int.self) { current = found }
            guard current <= version else { throw JournalError.unsupportedSchema("PostgreSQL at \(server)", version: current) }
            if current < version {
                for migration in migrations[current...] {
                    for statement in migration {
                        try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                }
                try await connection.run("DELETE FROM statesync_schema", logger: logger)
                try await connection.run("INSERT INTO statesync_schema (version) VALUES (\(version))", logger: logger)
                logger.info("PostgreSQL schema migrated", metadata: ["from": "\(current)", "to": "\(version)"])
            }
            try await connection.run("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.run("ROLLBACK", logger: logger)   // the migration's own error is reported
            throw error
        }
    }
}
