import Logging
import PostgresNIO

/// How a node's connections to PostgreSQL are opened: where
/// (``PostgresLocation``), with the session bounds every one starts with
/// (``PostgresSessionBounds``).
struct PostgresConnector: Sendable, CustomStringConvertible {
    /// Where the journal is.
    let location: PostgresLocation
    /// The bounds each session starts with.
    let bounds: PostgresSessionBounds

    /// `USER@HOST:PORT/DATABASE`, for logs and error messages (no password).
    var description: String { location.description }

    /// Opens a connection with id `id`, named `applicationName` in
    /// `pg_stat_activity` when given.
    func connect(id: PostgresConnection.ID, applicationName: String? = nil, logger: Logger) async throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.additionalStartupParameters = bounds.startupParameters
        if let applicationName {
            configuration.options.additionalStartupParameters.append(("application_name", applicationName))
        }
        return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
    }
}
