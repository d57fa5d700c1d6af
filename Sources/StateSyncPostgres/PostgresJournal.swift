public import Logging
import NIOCore
import PostgresNIO
public import StateSyncJournal
import Synchronization

/// A ``Journal`` in PostgreSQL, shared by every `statesync serve --postgres`
/// node of a store: the journal, the snapshots and the exactly-once outcomes
/// are rows keyed by ``Configuration/storeID``, and the store's epoch and
/// head revision live in the database, not in a node.
///
/// PostgreSQL decides the order: each group commit is one transaction that
/// moves the store's head revision with a compare-and-set and inserts the
/// rows, so a node with a stale view (another node wrote meanwhile, or it
/// was paused) has its batch refused with ``JournalError/isRevisionGap``
/// and forks nothing (``PostgresGroupStorage`` explains why the scheme is
/// correct). A completion reports success only after `COMMIT` returned;
/// a commit whose outcome is unknown is never reported as a success.
///
/// Three connections per node: one for the writer (group commit), one for
/// reads and snapshots, one to LISTEN for other nodes' commits; a fourth
/// for the node's heartbeat when ``Configuration/node`` is set
/// (``PostgresPresence``). The schema is created or migrated when the
/// journal opens (``PostgresSchema``).
///
/// A lost connection (PostgreSQL restarted, the backend terminated) is
/// opened again: the writer retries with a backoff while ``writeFault``
/// says why (``PostgresGroupStorage`` explains why no batch is written
/// twice), and a failed read opens a new connection for the next one.
///
/// Other nodes' writes are followed (``follow(hint:)``): a third
/// connection LISTENs for the notification each group commit sends, and the
/// head is polled as a safety net (``PostgresHeadWatcher``).
///
/// ```swift
/// let journal = try await PostgresJournal.open(
///     location: try PostgresLocation(url: "postgres://statesync@127.0.0.1:5432/statesync"), logger: logger)
/// let engine = try await SyncEngine<Board>(journal: journal)
/// ```
public final class PostgresJournal: SharedJournal {
    /// What a ``PostgresJournal`` stores and keeps.
    public struct Configuration: Sendable, Hashable {
        /// The store this journal reads and writes. Default `"default"`:
        /// one store per database today; several (rooms) later.
        public var storeID: String
        /// How much history is kept behind the newest snapshot, as with
        /// ``SQLiteJournal`` (applied when a snapshot is saved). Default:
        /// ``JournalRetention``'s defaults.
        public var retention: JournalRetention
        /// How long a statement may wait for PostgreSQL's answer before the
        /// journal gives up on its connection and opens another (a write is
        /// then retried, and a `COMMIT` that timed out has an unknown
        /// outcome). Default
        /// 10 s: healthy statements take milliseconds, and a lost connection
        /// must not hold a node's answers forever (see ``TimedConnection``).
        public var statementTimeout: Duration
        /// How long each statement that opens the journal may take: creating
        /// or migrating the schema (DDL that may wait for another node's
        /// migration or rewrite a large table), creating the store,
        /// registering the node. Default 60 s; later statements are bounded
        /// by ``statementTimeout``.
        public var openTimeout: Duration = .seconds(60)
        /// How long the writer waits before connecting again after it lost
        /// its connection; each further failed attempt waits twice as long,
        /// up to ``maximumRetryDelay``. Default 50 ms.
        public var firstRetryDelay: Duration
        /// The longest wait between two attempts to reconnect. Default 2 s.
        public var maximumRetryDelay: Duration
        /// This server as a node of a cluster: presence kept per node with a
        /// heartbeat (``PostgresPresence``), on a third connection. Default
        /// `nil`: no presence is kept per node (a tool reading the journal,
        /// one server alone); `statesync serve --postgres` sets it.
        public var node: PostgresNode?
        /// How often the store's head is read to learn of other nodes'
        /// writes that no notification announced (a lost notification, a
        /// LISTEN connection that dropped). Default 1 s: the worst delay
        /// before a node follows others when notifications fail, for one
        /// tiny query per node per interval.
        public var pollInterval: Duration
        /// How long a node whose batch another node refused keeps the
        /// store locked for its redo (see `PostgresGroupStorage+Turns.swift`).
        /// Default 200 ms: a catch-up and a redo take a few milliseconds.
        public var heldTurnLimit: Duration = .milliseconds(200)

        /// A configuration with the documented defaults.
        public init(
            storeID: String = "default", retention: JournalRetention = JournalRetention(),
            statementTimeout: Duration = .seconds(10), firstRetryDelay: Duration = .milliseconds(50),
            maximumRetryDelay: Duration = .seconds(2), pollInterval: Duration = .seconds(1), node: PostgresNode? = nil
        ) {
            self.pollInterval = pollInterval
            self.storeID = storeID
            self.retention = retention
            self.statementTimeout = statementTimeout
            self.firstRetryDelay = firstRetryDelay
            self.maximumRetryDelay = maximumRetryDelay
            self.node = node
        }
    }

    /// The store's epoch, created with the store and the same on every node
    /// (see ``Journal/epoch``).
    public let epoch: String
    /// Where the journal is (never with the password).
    public let location: PostgresLocation

    let configuration: Configuration
    let reader: ReconnectingConnection
    private let presence: PostgresPresence?
    let logger: Logger
    private let writer: GroupCommitWriter<PostgresGroupStorage>
    private let writerTask: Task<Void, Never>
    private let watcherTask = Mutex<Task<Void, Never>?>(nil)

    /// Connects to `location`, creates or migrates the schema, and creates
    /// the store when it does not exist yet.
    ///
    /// - Parameters:
    ///   - writeFailed: called on each failed write attempt (each reconnect
    ///     attempt too); `statesync serve` counts them in
    ///     `statesync_journal_write_failures_total`.
    /// - Throws: ``JournalError``: the server cannot be reached or refused
    ///   the login, or the schema is newer than this code.
    public static func open(
        location: PostgresLocation, configuration: Configuration = Configuration(), logger: Logger,
        writeFailed: @escaping @Sendable () -> Void = {}
    ) async throws -> PostgresJournal {
        let server = location.description
        let timeout = TimeAmount(configuration.statementTimeout)
        let openTimeout = TimeAmount(configuration.openTimeout)
        let writer = TimedConnection(connection: try await connect(location, id: 1, logger: logger), timeout: openTimeout)
        let reader: TimedConnection
        do {
            reader = TimedConnection(connection: try await connect(location, id: 2, logger: logger), timeout: timeout)
        } catch {
            try? await writer.close()   // the connect error is the one to report
            throw error
        }
        do {
            try await PostgresSchema.prepare(writer, server: server, logger: logger)
            let store = configuration.storeID
            try await writer.run("""
                INSERT INTO statesync_stores (store_id, epoch, head_revision) VALUES (\(store), \(Epoch.random()), 0)
                ON CONFLICT (store_id) DO NOTHING
                """, logger: logger)
            var found: (String, Int64)?
            for row in try await writer.run(
                "SELECT epoch, head_revision FROM statesync_stores WHERE store_id = \(store)", logger: logger
            ).decode((String, Int64).self) { found = row }
            guard let (epoch, head) = found else {
                throw JournalError.postgres(server, "open the store", "the store \(store) vanished while it was created")
            }
            logger.info("PostgreSQL journal opened", metadata: [
                "server": "\(server)", "store": "\(store)", "epoch": "\(epoch)", "revision": "\(head)"])
            var presence: PostgresPresence?
            if let node = configuration.node {
                presence = try await registerNode(
                    node, store: store, location: location, timeouts: (open: openTimeout, statement: timeout), logger: logger)
            }
            return PostgresJournal(
                location: location, configuration: configuration, epoch: epoch, head: UInt64(head),
                writer: ReconnectingConnection(
                    TimedConnection(connection: writer.connection, timeout: timeout), role: "writer", location: location,
                    logger: logger),
                reader: ReconnectingConnection(reader, role: "reader", location: location, logger: logger),
                presence: presence, logger: logger, writeFailed: writeFailed)
        } catch {
            try? await writer.close()   // the open error is the one to report
            try? await reader.close()
            throw PostgresFailure.journalError(error, server: server, operation: "open the journal")
        }
    }

    /// Opens the presence connection and registers `node` in the cluster.
    private static func registerNode(
        _ node: PostgresNode, store: String, location: PostgresLocation, timeouts: (open: TimeAmount, statement: TimeAmount),
        logger: Logger
    ) async throws -> PostgresPresence {
        let opened = TimedConnection(connection: try await connect(location, id: 4, logger: logger), timeout: timeouts.open)
        let presence = PostgresPresence(
            node: node, store: store,
            connection: ReconnectingConnection(
                TimedConnection(connection: opened.connection, timeout: timeouts.statement), role: "presence",
                location: location, logger: logger),
            logger: logger)
        do {
            try await presence.register(on: opened)
        } catch {
            try? await opened.close()   // the registration's error is the one to report
            throw error
        }
        return presence
    }

    private static func connect(_ location: PostgresLocation, id: Int, logger: Logger) async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration: location.configuration, id: id, logger: logger)
        } catch {
            throw PostgresFailure.journalError(error, server: location.description, operation: "connect")
        }
    }

    private init(
        location: PostgresLocation, configuration: Configuration, epoch: String, head: UInt64,
        writer connection: ReconnectingConnection, reader: ReconnectingConnection, presence: PostgresPresence?,
        logger: Logger, writeFailed: @escaping @Sendable () -> Void
    ) {
        self.location = location
        self.configuration = configuration
        self.epoch = epoch
        self.reader = reader
        self.presence = presence
        self.logger = logger
        let storage = PostgresGroupStorage(
            connection: connection, storeID: configuration.storeID, nodeID: presence?.nodeID, server: location.description,
            heldTurnLimit: configuration.heldTurnLimit, logger: logger)
        let writer = GroupCommitWriter(
            storage: storage, lastRevision: head,
            backoff: RetryBackoff(first: configuration.firstRetryDelay, maximum: configuration.maximumRetryDelay),
            logger: logger, writeFailed: writeFailed)
        self.writer = writer
        // Owned by the journal: `close()` ends it and awaits it.
        writerTask = Task { await writer.run() }
    }

    /// A journal dropped without ``close()`` ends its writer's task, which
    /// would otherwise wait for work forever.
    deinit {
        writerTask.cancel()
    }

    /// The store's head revision as this node last committed or read it (see
    /// ``Journal/lastRevision``): after a refused append, the head another
    /// node left.
    public var lastRevision: UInt64 { writer.durableRevision }

    /// Why writes are failing while the writer reconnects, or `nil` (see
    /// ``Journal/writeFault``): the engine refuses new actions meanwhile
    /// and `/health` answers 503.
    public var writeFault: JournalWriteFault? { writer.fault }

    /// This node's presence in the cluster when ``Configuration/node`` is
    /// set (see ``PostgresPresence``), else `nil`.
    public var clusterPresence: (any ClusterPresence)? { presence }

    /// Whether ``close()`` was called.
    var writerIsClosed: Bool { writer.isClosed }

    /// Starts the ``PostgresHeadWatcher`` (LISTEN plus polling every
    /// ``Configuration/pollInterval``): `hint` gets each head past
    /// ``lastRevision`` it learns of (see ``SharedJournal/follow(hint:)``).
    /// ``close()`` stops it; a second call does nothing.
    public func follow(hint: @escaping @Sendable (UInt64) -> Void) {
        let writer = writer
        let watcher = PostgresHeadWatcher(
            location: location, storeID: configuration.storeID, pollInterval: configuration.pollInterval,
            backoff: RetryBackoff(first: configuration.firstRetryDelay, maximum: configuration.maximumRetryDelay),
            reader: reader, logger: logger, lastRevision: { writer.durableRevision }, hint: hint)
        watcherTask.withLock { task in
            guard task == nil, !writerIsClosed else { return }
            task = Task { await watcher.run() }
        }
    }

    /// The engine applied every entry through `revision`: the next group
    /// commit's compare-and-set starts from it (see ``SharedJournal/caughtUp(through:)``).
    public func caughtUp(through revision: UInt64) {
        writer.caughtUp(through: revision)
    }

    /// Queues `batch` for the next group commit (see ``Journal/append(_:completion:)``).
    /// The completion runs on the writer's task, after `COMMIT` returned or
    /// failed; a refused batch (another node moved the head) fails with
    /// ``JournalError/isRevisionGap`` and the journal stays usable.
    public func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void) {
        writer.enqueue(.batch(batch, completion))
    }

    /// Waits for pending writes, removes this node from the cluster's nodes,
    /// then closes the connections (see ``Journal/close()``).
    public func close() async throws {
        guard try await closeWriter() else { return }
        if let watcher = watcherTask.withLock({ $0 }) {
            watcher.cancel()
            await watcher.value
        }
        await presence?.unregister()
        do {
            try await reader.close()
        } catch {
            throw PostgresFailure.journalError(error, server: location.description, operation: "close the connections")
        }
        logger.info("PostgreSQL journal closed", metadata: ["server": "\(location)"])
    }

    /// Ends the writer once what is pending is written; `false` when an
    /// earlier ``close()`` did. The other connections close even when the
    /// writer's failed to.
    private func closeWriter() async throws -> Bool {
        do {
            guard try await writer.close() else { return false }
        } catch {
            await writerTask.value
            try? await reader.close()   // the writer's error is the one to report
            throw error
        }
        await writerTask.value
        return true
    }
}
