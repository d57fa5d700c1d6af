import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// A ``TimedConnection`` replaced when lost: a statement that fails for want of a
/// connection drops it and rethrows, and the next one connects again. It never retries a
/// statement (only the caller knows whether one may be sent twice; `COMMIT` may not); a
/// connection known closed is replaced first, as postgres-nio 1.33.2 would hang on it.
final class ReconnectingConnection: Sendable {
    private let connector: PostgresConnector
    private let role: String
    private let id: PostgresConnection.ID
    private let timeout: TimeAmount
    private let logger: Logger
    private let current: Mutex<TimedConnection?>
    /// Connections opened so far (the first one is not "opened again").
    private let opened: Atomic<Int>

    /// Wraps `connection`, the first one, already open; `role` ("writer",
    /// "reader") names it in the log.
    init(_ connection: TimedConnection, role: String, connector: PostgresConnector, logger: Logger) {
        self.connector = connector
        self.role = role
        id = connection.connection.id
        timeout = connection.timeout
        self.logger = logger
        current = Mutex(connection)
        opened = Atomic(1)
    }

    /// A connection not opened yet: the first statement opens it, with
    /// connection id `id` and statements bounded by `timeout`.
    init(role: String, id: PostgresConnection.ID, timeout: TimeAmount, connector: PostgresConnector, logger: Logger) {
        self.connector = connector
        self.role = role
        self.id = id
        self.timeout = timeout
        self.logger = logger
        current = Mutex(nil)
        opened = Atomic(0)
    }

    /// The open connection, connecting again when there is none.
    ///
    /// - Throws: what connecting threw (the server cannot be reached).
    func connection() async throws -> TimedConnection {
        if let open = current.withLock({ $0 }), !open.connection.isClosed { return open }
        let fresh = TimedConnection(
            connection: try await connector.connect(id: id, logger: logger),
            timeout: timeout)
        let replaced = current.withLock { current in
            defer { current = fresh }
            return current
        }
        if let replaced { Self.discard(replaced) }
        if self.opened.add(1, ordering: .relaxed).oldValue == 0 {
            logger.debug("PostgreSQL connection opened", metadata: ["server": "\(connector)", "connection": "\(role)"])
        } else {
            logger.info("PostgreSQL connection opened again", metadata: ["server": "\(connector)", "connection": "\(role)"])
        }
        return fresh
    }

    /// Runs `query` on the open connection; a failure that is not the
    /// server's answer to the statement drops the connection, then is
    /// rethrown.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let connection = try await connection()
        do {
            return try await connection.run(query, logger: logger)
        } catch {
            if !PostgresFailure.isServerAnswer(error) { drop(connection) }
            throw error
        }
    }

    /// Forgets `connection` (when it is still the current one) and closes
    /// it in the background: the next statement connects again.
    func drop(_ connection: TimedConnection) {
        let dropped = current.withLock { current -> Bool in
            guard let open = current, open.connection === connection.connection else { return false }
            current = nil
            return true
        }
        if dropped { Self.discard(connection) }
    }

    /// Closes the open connection, if any.
    func close() async throws {
        guard let open = current.withLock({ current in defer { current = nil }; return current }),
              !open.connection.isClosed else { return }
        try await open.close()
    }

    /// A connection released without ``close()`` (a caller's error path) is closed here
    /// without waiting, with a warning: postgres-nio's debug builds stop on one released open.
    deinit {
        guard let open = current.withLock({ $0 }), !open.connection.isClosed else { return }
        logger.warning("a PostgreSQL connection was released without being closed: closing it", metadata: ["role": "\(role)"])
        Self.discard(open)
    }

    /// Closes a lost connection without waiting (its server may be gone), keeping it alive
    /// until closing ends: postgres-nio requires a connection closed before it is released.
    private static func discard(_ connection: TimedConnection) {
        let closing: EventLoopFuture<Void> = connection.connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}
