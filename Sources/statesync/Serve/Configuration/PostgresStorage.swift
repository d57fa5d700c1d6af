import StateSyncJournal
import StateSyncPostgres
import StateSyncSQLite
import StateSyncServer

/// The storage of `serve --postgres URL`: the cluster's journal in PostgreSQL.
enum PostgresStorage {
    /// A ``PostgresJournal`` at `url` (called `name` in errors: `--postgres`,
    /// `STATESYNC_POSTGRES_URL`) with the server's journal `retention` and
    /// `pollInterval`, as the cluster `node`, opened when the server starts.
    static func storage(
        url: String, named name: String, retention: JournalRetention, pollInterval: Duration, node: PostgresNode
    ) throws(CommandFailure) -> StateSyncStorage {
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: url)
        } catch {
            throw CommandFailure(message: "\(name): \(error)")
        }
        let configuration = PostgresJournal.Configuration(retention: retention, pollInterval: pollInterval, node: node)
        return .journal("postgres \(location)") { logger, writeFailed in
            try await PostgresJournal.open(location: location, configuration: configuration, logger: logger, writeFailed: writeFailed)
        }
    }
}
