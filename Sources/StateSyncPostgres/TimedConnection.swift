import Logging
import NIOCore
import PostgresNIO

/// A PostgreSQL connection whose every statement has a deadline: postgres-nio 1.33.2 can
/// leave a statement on a connection whose backend was terminated unanswered forever. Past
/// ``timeout`` it fails with ``TimedOut`` (a lost connection; an unknown outcome for
/// `COMMIT`); on a connection already closed it fails at once with ``Closed``, unsent.
struct TimedConnection: Sendable {
    /// A statement got no answer within the deadline.
    struct TimedOut: Error, CustomStringConvertible {
        let timeout: TimeAmount
        var description: String { "PostgreSQL did not answer within \(timeout.nanoseconds / 1_000_000) ms" }
    }

    /// The connection was closed before the statement was sent: the
    /// statement never reached PostgreSQL.
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the connection to PostgreSQL is closed" }
    }

    let connection: PostgresConnection
    let timeout: TimeAmount

    /// Runs `query` and returns its rows, or throws its error, ``TimedOut`` or ``Closed``.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        guard !connection.isClosed else { throw Closed() }
        let eventLoop = connection.eventLoop
        let promise = eventLoop.makePromise(of: [PostgresRow].self)
        let timeout = timeout
        let timer = eventLoop.scheduleTask(in: timeout) { promise.fail(TimedOut(timeout: timeout)) }
        connection.query(query, logger: logger).whenComplete { result in
            timer.cancel()
            promise.completeWith(result.map(\.rows))
        }
        return try await promise.futureResult.get()
    }

    /// Closes the connection.
    func close() async throws {
        try await connection.close()
    }
}

extension Array where Element == PostgresRow {
    /// Each row's single column as `Column`.
    func decode<Column: PostgresDecodable>(_ type: Column.Type) throws -> [Column] {
        try map { try $0.decode(type) }
    }

    /// Each row's columns as the tuple `(repeat each Column)`.
    func decode<each Column: PostgresDecodable>(_ type: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(type) }
    }
}
