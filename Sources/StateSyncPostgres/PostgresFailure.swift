import PostgresNIO
import StateSyncJournal

/// Turns postgres-nio's errors into ``JournalError``s that say what failed.
///
/// `PSQLError.description` is deliberately generic (it may otherwise leak
/// query data); the server's own message and SQLSTATE, or the connection
/// error, are what an operator needs, so those are used.
enum PostgresFailure {
    /// `error` while the journal did `operation` against `server`.
    static func journalError(_ error: any Error, server: String, operation: String) -> JournalError {
        if let error = error as? JournalError { return error }
        return .postgres(server, operation, message(error))
    }

    /// Whether `error` came from the server answering (the statement was
    /// refused, the connection still stood) rather than from the connection.
    /// The server ending the session (SQLSTATE class 57P: terminated by
    /// `pg_terminate_backend`, shut down, crashed; 25P03: left idle in a
    /// transaction past ``PostgresSessionBounds/idleInTransactionTimeout``)
    /// or a connection exception (class 08) is a lost connection, even when
    /// its message arrives as the answer to a statement.
    static func isServerAnswer(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return false }
        let state = sqlState(of: error)
        return !(state.hasPrefix("57P") || state.hasPrefix("08") || state == "25P03")
    }

    /// Whether `error` is a statement that waited for a lock longer than
    /// ``PostgresSessionBounds/lockTimeout`` (SQLSTATE 55P03): the session
    /// still stands and the statement may be tried again.
    static func isLockTimeout(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return false }
        return sqlState(of: error) == "55P03"
    }

    private static func sqlState(of error: PSQLError) -> String {
        error.serverInfo?[.sqlState] ?? ""
    }

    /// The most specific text `error` carries.
    static func message(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let info = error.serverInfo, let text = info[.message] {
            return "\(text) (SQLSTATE \(info[.sqlState] ?? "?"))"
        }
        if let underlying = error.underlying { return "\(error.code): \(message(underlying))" }
        return "\(error.code)"
    }
}

extension JournalError {
    /// PostgreSQL at `server` (host, port and database, never the password)
    /// failed to do `operation`.
    static func postgres(_ server: String, _ operation: String, _ message: String) -> JournalError {
        .storage("PostgreSQL at \(server)", operation: operation, message: message)
    }
}
