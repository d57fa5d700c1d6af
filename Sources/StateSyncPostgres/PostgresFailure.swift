import PostgresNIO
import StateSyncJournal

/// Turns postgres-nio's errors into ``JournalError``s with the server's message and
/// SQLSTATE (`PSQLError.description` is deliberately generic, so it is not used).
enum PostgresFailure {
    /// `error` while the journal did `operation` against `server`.
    static func journalError(_ error: any Error, server: String, operation: String) -> JournalError {
        if let error = error as? JournalError { return error }
        return .postgres(server, operation, message(error))
    }

    /// Whether `error` is the server's answer (a refused statement, the connection still
    /// standing). SQLSTATE class 57P (session ended), 25P03 (idle in transaction past
    /// ``PostgresSessionBounds/idleInTransactionTimeout``) and class 08 are a lost connection.
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
