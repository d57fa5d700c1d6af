import Logging
import PostgresNIO
import TestProcessSupport

/// Statements a test runs on its PostgreSQL directly, beside the journal
/// (to inspect the rows, or to break something on purpose).
enum PostgresQueries {
    fileprivate static let logger = Logger(label: "statesync.postgres-tests.sql")

    /// Runs `sql` on a connection of its own.
    static func run(_ sql: String, on postgres: TestPostgres) async throws {
        try await withConnection(to: postgres) { connection in
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// The first column of the first row of `sql`, as text.
    static func text(_ sql: String, on postgres: TestPostgres) async throws -> String? {
        try await withConnection(to: postgres) { connection in
            var first: String?
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                .decode(String.self) where first == nil { first = value }
            return first
        }
    }

    /// The journal's revisions of the default store, ascending.
    static func revisions(on postgres: TestPostgres) async throws -> [Int64] {
        try await withConnection(to: postgres) { connection in
            var revisions: [Int64] = []
            for try await revision in try await connection.query(
                "SELECT revision FROM statesync_journal WHERE store_id = 'default' ORDER BY revision", logger: logger
            ).decode(Int64.self) { revisions.append(revision) }
            return revisions
        }
    }

    /// The action ids `clientID` dispatched in the default store's journal
    /// (presence entries have none), in revision order.
    static func actionIDs(of clientID: String, on postgres: TestPostgres) async throws -> [String] {
        try await withConnection(to: postgres) { connection in
            var ids: [String] = []
            for try await id in try await connection.query("""
                SELECT action_id FROM statesync_journal WHERE store_id = 'default' AND client_id = \(clientID) AND action_id IS NOT NULL
                 ORDER BY revision
                """, logger: logger
            ).decode(String.self) { ids.append(id) }
            return ids
        }
    }

    fileprivate static func withConnection<T: Sendable>(
        to postgres: TestPostgres, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: postgres.port, username: TestPostgres.user, password: nil,
            database: TestPostgres.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 99, logger: logger)
        return try await withCleanup { try await body(connection) } cleanup: { try await connection.close() }
    }
}

extension PostgresQueries {
    /// The first column of every row of `sql`, as text, in the order given.
    static func texts(_ sql: String, on postgres: TestPostgres) async throws -> [String] {
        try await withConnection(to: postgres) { connection in
            var values: [String] = []
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                .decode(String.self) { values.append(value) }
            return values
        }
    }

    /// The sessions `statesync_presence` lists as present, sorted.
    static func presentSessions(on postgres: TestPostgres) async throws -> [String] {
        try await texts("SELECT session_id FROM statesync_presence ORDER BY session_id", on: postgres)
    }

    /// The nodes `statesync_nodes` lists as alive, sorted.
    static func liveNodes(on postgres: TestPostgres) async throws -> [String] {
        try await texts("SELECT node_id FROM statesync_nodes ORDER BY node_id", on: postgres)
    }
}

extension PostgresQueries {
    /// Runs `body` while a transaction of a connection of its own holds
    /// what `lockSQL` takes (e.g. `LOCK TABLE … IN ACCESS EXCLUSIVE MODE`),
    /// then rolls it back.
    static func whileHolding<T: Sendable>(
        _ lockSQL: String, on postgres: TestPostgres, _ body: () async throws -> T
    ) async throws -> T {
        try await withConnection(to: postgres) { connection in
            _ = try await connection.query("BEGIN", logger: logger)
            _ = try await connection.query(PostgresQuery(unsafeSQL: lockSQL), logger: logger)
            return try await withCleanup { try await body() } cleanup: {
                _ = try await connection.query("ROLLBACK", logger: logger)
            }
        }
    }
}
