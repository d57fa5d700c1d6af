import Foundation
import StateSyncJournal
import StateSyncPostgres
import StateSyncServer

extension Serve {
    /// The PostgreSQL URL of `--postgres`, else of `$STATESYNC_POSTGRES_URL`
    /// (which keeps a password out of the argument list), else `nil`.
    /// `--memory` ignores the variable (and refuses `--postgres`).
    var postgresURL: String? {
        postgres ?? ProcessInfo.processInfo.environment["STATESYNC_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--poll-interval`'s default: ``PostgresJournal/Configuration/pollInterval``'s, in seconds.
    static var defaultPollInterval: Double {
        let interval = PostgresJournal.Configuration().pollInterval.components
        return Double(interval.seconds) + Double(interval.attoseconds) / 1e18
    }

    /// The storage of `--postgres URL`: a ``PostgresJournal`` with the
    /// server's journal retention and `--poll-interval`, as a new cluster
    /// node (random id) with `--presence-heartbeat` and `--presence-expiry`,
    /// opened when the server starts.
    static func postgresStorage(
        url: String, retention: JournalRetention, pollInterval: Duration, node: PostgresNode
    ) throws(CommandFailure) -> StateSyncStorage {
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: url)
        } catch {
            throw CommandFailure(message: "--postgres: \(error)")
        }
        let configuration = PostgresJournal.Configuration(retention: retention, pollInterval: pollInterval, node: node)
        return .journal("postgres \(location)") { logger, writeFailed in
            try await PostgresJournal.open(location: location, configuration: configuration, logger: logger, writeFailed: writeFailed)
        }
    }
}
