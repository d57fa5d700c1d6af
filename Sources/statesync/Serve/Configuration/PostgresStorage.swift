import StateSyncJournal
import StateSyncPostgres
import StateSyncSQLite
import StateSyncServer

/// The storage of `serve --postgres URL`: every store's journal in one
/// PostgreSQL database, from one ``PostgresStores`` per node.
enum PostgresStorage {
    /// The ``PostgresStores`` at `url` (`name` in errors) as cluster `node`, with the given
    /// retentions, poll interval, writer connections and session bounds; opened at server start.
    static func storage(
        url: String, named name: String, retention: JournalRetention, outcomeRetention: OutcomeRetention, pollInterval: Duration,
        node: PostgresNode, writerConnections: Int, sessionBounds: PostgresSessionBounds
    ) throws(CommandFailure) -> StateSyncStorage {
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: url)
        } catch {
            throw CommandFailure(message: "\(name): \(error)")
        }
        var journal = PostgresJournal.Configuration(retention: retention, pollInterval: pollInterval, node: node)
        journal.sessionBounds = sessionBounds
        journal.outcomeRetention = outcomeRetention
        let configuration = PostgresStores.Configuration(journal: journal, writerConnections: writerConnections)
        return .journals("postgres \(location)") { logger in
            try await PostgresStores.open(location: location, configuration: configuration, logger: logger)
        }
    }
}
