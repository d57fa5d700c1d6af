public import Logging
import NIOCore
import PostgresNIO
public import StateSyncJournal
import Synchronization

/// Every store of one `statesync serve --postgres` node in one PostgreSQL database: the
/// node-level storage, opened once, from which a ``PostgresJournal`` per store is opened
/// and closed cheaply (a ``StoreJournals``). Rows are keyed by ``storeID(of:)``, and the
/// connections do not grow with the stores: ``Configuration/writerConnections`` writers
/// leased per group commit (``PostgresWriterPool``), one reader, one LISTEN, and with a
/// node one for the heartbeat and one for leases. Each reconnects when lost, starts with
/// the session bounds and has a statement deadline; ``close()`` closes them once every
/// journal is closed.
///
/// ```swift
/// let stores = try await PostgresStores.open(
///     location: try PostgresLocation(url: "postgres://statesync@127.0.0.1:5432/statesync"), logger: logger)
/// let journal = try await stores.open("team-42", logger: logger, writeFailed: {})
/// // …
/// try await journal.close()
/// try await stores.close()
/// ```
public final class PostgresStores: StoreJournals {
    /// How a node's stores are kept and how many connections they share.
    public struct Configuration: Sendable, Hashable {
        /// What every store's journal keeps and how long it waits; its
        /// ``PostgresJournal/Configuration/storeID`` is unused (ids come from store names).
        public var journal: PostgresJournal.Configuration
        /// The writer connections the stores' group commits share (at least 1). Default 4: a
        /// commit holds one for a round trip or two; a node then holds at most 8 connections,
        /// so a dozen nodes fit PostgreSQL's default `max_connections` (100).
        public var writerConnections: Int

        /// A configuration with the documented defaults.
        public init(journal: PostgresJournal.Configuration = PostgresJournal.Configuration(), writerConnections: Int = 4) {
            self.journal = journal
            self.writerConnections = writerConnections
        }
    }

    /// Where the stores are (never with the password).
    public let location: PostgresLocation
    let configuration: Configuration
    let writers: PostgresWriterPool
    let reader: ReconnectingConnection
    let watcher: PostgresHeadWatcher
    let presence: PostgresPresence?
    /// The node's store leases when it is a node (``PostgresJournal/Configuration/node``).
    let leases: PostgresLeases?
    /// The secret every node of the database reads (`statesync_cluster`, made by the first),
    /// proving to another node that this one shares the database and may send it writes.
    /// Anyone who can read the database is trusted as a node anyway.
    public let clusterSecret: String?

    /// Records `address` (`host:port`) as where the other nodes reach this
    /// one, with every store lease it holds from its next renewal on (see
    /// ``StoreJournals/advertise(address:)``); nothing without a node.
    public func advertise(address: String) {
        leases?.advertise(address)
    }
    /// The first write PostgreSQL refused on any of these stores, or the first history lost.
    let failure = PostgresNodeFailure()
    /// The stores whose history went back in PostgreSQL.
    let historyLoss: PostgresHistoryLoss
    /// The store whose rows hold the node's heartbeat (`main`'s, or a
    /// journal opened alone's), whose presence ``presence`` keeps.
    let nodeStoreID: String
    private let catalog: PostgresStoreCatalog
    private let logger: Logger
    private let closed = Mutex(false)

    /// Connects to `location`, creates or migrates the schema and the store `main`, registers
    /// the node when ``PostgresJournal/Configuration/node`` is set, and reads the store list.
    public static func open(
        location: PostgresLocation, configuration: Configuration = Configuration(), logger: Logger
    ) async throws -> PostgresStores {
        try await open(location: location, configuration: configuration, nodeStoreID: PostgresStoreCatalog.mainID, logger: logger)
    }

    /// The id of the store named `store` in every table: `default` for
    /// `main` (its id before a database held several stores), `store:NAME`
    /// for any other, so that no two names share an id.
    public static func storeID(of store: String) -> String {
        PostgresStoreCatalog.storeID(of: store)
    }

    /// Opens as ``open(location:configuration:logger:)``, the node's row
    /// (when there is a node) under the store `nodeStoreID`, created first.
    static func open(
        location: PostgresLocation, configuration: Configuration, nodeStoreID: String, logger: Logger
    ) async throws -> PostgresStores {
        let server = location.description
        let journal = configuration.journal
        let connector = PostgresConnector(location: location, bounds: journal.sessionBounds)
        let timeout = TimeAmount(journal.statementTimeout)
        let openTimeout = TimeAmount(journal.openTimeout)
        let writer = TimedConnection(connection: try await connect(connector, id: 1, logger: logger), timeout: openTimeout)
        let reader: TimedConnection
        do {
            reader = TimedConnection(connection: try await connect(connector, id: 2, logger: logger), timeout: timeout)
        } catch {
            try? await writer.close()   // the connect error is the one to report
            throw error
        }
        do {
            try await PostgresSchema.prepare(writer, server: server, logger: logger)
            _ = try await createStore(nodeStoreID, on: writer, server: server, logger: logger)
            let secret = try await clusterSecret(on: writer, server: server, logger: logger)
            var presence: PostgresPresence?
            if let node = journal.node {
                presence = try await registerNode(
                    node, store: nodeStoreID, connector: connector, timeouts: (open: openTimeout, statement: timeout), logger: logger)
            }
            let catalog = PostgresStoreCatalog(logger: logger)
            let reconnectingReader = ReconnectingConnection(reader, role: "reader", connector: connector, logger: logger)
            await catalog.reload(from: reconnectingReader)
            return PostgresStores(
                connector: connector, configuration: configuration,
                writers: PostgresWriterPool(
                    first: TimedConnection(connection: writer.connection, timeout: timeout),
                    count: configuration.writerConnections, connector: connector, logger: logger),
                reader: reconnectingReader, presence: presence, nodeStoreID: nodeStoreID, catalog: catalog, secret: secret,
                logger: logger)
        } catch {
            try? await writer.close()   // the open error is the one to report
            try? await reader.close()
            throw PostgresFailure.journalError(error, server: server, operation: "open the journal")
        }
    }

    private init(
        connector: PostgresConnector, configuration: Configuration, writers: PostgresWriterPool, reader: ReconnectingConnection,
        presence: PostgresPresence?, nodeStoreID: String, catalog: PostgresStoreCatalog, secret: String, logger: Logger
    ) {
        clusterSecret = secret
        self.nodeStoreID = nodeStoreID
        location = connector.location
        self.configuration = configuration
        self.writers = writers
        self.reader = reader
        self.presence = presence
        self.catalog = catalog
        self.logger = logger
        leases = configuration.journal.node.map { node in
            PostgresLeases(
                node: node,
                connection: ReconnectingConnection(
                    role: "leases", id: 5, timeout: TimeAmount(node.leaseDuration), connector: connector, logger: logger),
                logger: logger)
        }
        historyLoss = PostgresHistoryLoss(nodeFailure: failure, reader: reader, server: connector.location.description, logger: logger)
        watcher = PostgresHeadWatcher(
            connector: connector, pollInterval: configuration.journal.pollInterval,
            backoff: RetryBackoff(first: configuration.journal.firstRetryDelay, maximum: configuration.journal.maximumRetryDelay),
            reader: reader, catalog: catalog, historyLoss: historyLoss, logger: logger)
    }

    /// Opens the journal of `store`, creating the store when it does not
    /// exist (see ``StoreJournals/open(_:logger:writeFailed:)``).
    public func open(_ store: String, logger: Logger, writeFailed: @escaping @Sendable () -> Void) async throws -> any Journal {
        var logger = logger
        if store != "main" { logger[metadataKey: "store"] = "\(store)" }
        return try await journal(storeID: Self.storeID(of: store), ownsStores: false, logger: logger, writeFailed: writeFailed)
    }

    /// The journal of the store `storeID`, created when missing; with
    /// `ownsStores`, closing the journal closes these stores too.
    func journal(
        storeID: String, ownsStores: Bool, logger: Logger, writeFailed: @escaping @Sendable () -> Void
    ) async throws -> PostgresJournal {
        guard !closed.withLock({ $0 }) else { throw JournalError.closed }
        let (epoch, head) = try await withWriter("open the store") { [logger, location] connection in
            try await Self.createStore(storeID, on: connection, server: location.description, logger: logger)
        }
        catalog.insert(storeID)
        logger.info("PostgreSQL journal opened", metadata: [
            "server": "\(location)", "store": "\(storeID)", "epoch": "\(epoch)", "revision": "\(head)"])
        var journal = configuration.journal
        journal.storeID = storeID
        return PostgresJournal(
            stores: self, configuration: journal, epoch: epoch, head: head, ownsStores: ownsStores, logger: logger,
            writeFailed: writeFailed)
    }

    /// Whether `store` exists, as this node knows now (see ``PostgresStoreCatalog``).
    public func exists(_ store: String) -> Bool {
        catalog.contains(Self.storeID(of: store))
    }

    /// The names of the stores, as this node knows now (see ``PostgresStoreCatalog``).
    public func names() -> [String] {
        catalog.names()
    }

    /// Deletes every row of `store` in one transaction (`main` is refused). It must be closed
    /// on this node; another node with it open is not detected (its next write fails). When it
    /// throws, nothing was deleted, or a lost `COMMIT` left that unknown.
    public func remove(_ store: String) async throws {
        let id = Self.storeID(of: store)
        guard id != PostgresStoreCatalog.mainID else {
            throw JournalError.postgres(location.description, "delete the store main", "main is never deleted")
        }
        try await withWriter("delete the store \(store)") { [logger] connection in
            try await connection.run("BEGIN", logger: logger)
            do {
                try await connection.run("DELETE FROM statesync_journal WHERE store_id = \(id)", logger: logger)
                try await connection.run("DELETE FROM statesync_snapshots WHERE store_id = \(id)", logger: logger)
                try await connection.run("DELETE FROM statesync_outcomes WHERE store_id = \(id)", logger: logger)
                try await connection.run("DELETE FROM statesync_outcome_clients WHERE store_id = \(id)", logger: logger)
                try await connection.run("DELETE FROM statesync_presence WHERE store_id = \(id)", logger: logger)
                try await connection.run("DELETE FROM statesync_nodes WHERE store_id = \(id)", logger: logger)
                try await connection.run("DELETE FROM statesync_leases WHERE store_id = \(id)", logger: logger)
                try await connection.run("""
                    DELETE FROM statesync_stores WHERE store_id = \(id)
                    RETURNING pg_notify(\(PostgresHeadWatcher.channel), \(PostgresHeadWatcher.payload(created: false, store: id)))::text
                    """, logger: logger)
            } catch {
                if PostgresFailure.isServerAnswer(error) { _ = try? await connection.run("ROLLBACK", logger: logger) }
                throw error
            }
            try await connection.run("COMMIT", logger: logger)
        }
        catalog.remove(id)
        logger.info("PostgreSQL store deleted", metadata: ["server": "\(location)", "store": "\(id)"])
    }

    /// Stops following, removes the node from the cluster, and closes the
    /// connections; call once every journal opened here is closed. A
    /// second call does nothing.
    public func close() async throws {
        guard closed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        await watcher.stop()
        await leases?.stop()
        await presence?.unregister()
        do {
            try await reader.close()
            try await writers.close()
        } catch {
            try? await writers.close()   // the first error is the one to report
            throw PostgresFailure.journalError(error, server: location.description, operation: "close the connections")
        }
        logger.info("PostgreSQL stores closed", metadata: ["server": "\(location)"])
    }

    /// Runs `body` on a leased writer connection, outside any transaction
    /// when it returns (a lost connection is dropped), mapping errors to
    /// ``JournalError``.
    @discardableResult
    private func withWriter<T: Sendable>(
        _ operation: String, _ body: @Sendable (TimedConnection) async throws -> T
    ) async throws -> T {
        let lease = try await writers.lease()
        defer { writers.giveBack(lease) }
        do {
            let connection = try await lease.connection.connection()
            do {
                return try await body(connection)
            } catch {
                if !PostgresFailure.isServerAnswer(error) { lease.connection.drop(connection) }
                throw error
            }
        } catch {
            throw PostgresFailure.journalError(error, server: location.description, operation: operation)
        }
    }

    /// Creates the store `id` when it does not exist (announcing it to the
    /// other nodes), and returns its epoch and head revision.
    private static func createStore(
        _ id: String, on connection: TimedConnection, server: String, logger: Logger
    ) async throws -> (epoch: String, head: UInt64) {
        try await connection.run("""
            INSERT INTO statesync_stores (store_id, epoch, head_revision) VALUES (\(id), \(Epoch.random()), 0)
            ON CONFLICT (store_id) DO NOTHING
            RETURNING pg_notify(\(PostgresHeadWatcher.channel), \(PostgresHeadWatcher.payload(created: true, store: id)))::text
            """, logger: logger)
        var found: (String, Int64)?
        for row in try await connection.run(
            "SELECT epoch, head_revision FROM statesync_stores WHERE store_id = \(id)", logger: logger
        ).decode((String, Int64).self) { found = row }
        guard let (epoch, head) = found else {
            throw JournalError.postgres(server, "open the store", "the store \(id) vanished while it was created")
        }
        return (epoch, UInt64(head))
    }

    /// The cluster's secret, made now (64 hex digits from the system's
    /// secure random source) when no node made it before.
    private static func clusterSecret(on connection: TimedConnection, server: String, logger: Logger) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let made = (0..<4).map { _ in
            let digits = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        try await connection.run(
            "INSERT INTO statesync_cluster (id, secret) VALUES (1, \(made)) ON CONFLICT (id) DO NOTHING", logger: logger)
        for secret in try await connection.run("SELECT secret FROM statesync_cluster", logger: logger).decode(String.self) {
            return secret
        }
        throw JournalError.postgres(server, "read the cluster's secret", "statesync_cluster holds no row")
    }

    /// Opens the presence connection and registers `node` in the cluster.
    private static func registerNode(
        _ node: PostgresNode, store: String, connector: PostgresConnector, timeouts: (open: TimeAmount, statement: TimeAmount),
        logger: Logger
    ) async throws -> PostgresPresence {
        let opened = TimedConnection(connection: try await connect(connector, id: 4, logger: logger), timeout: timeouts.open)
        let presence = PostgresPresence(
            node: node, store: store,
            connection: ReconnectingConnection(
                TimedConnection(connection: opened.connection, timeout: timeouts.statement), role: "presence",
                connector: connector, logger: logger),
            logger: logger)
        do {
            try await presence.register(on: opened)
        } catch {
            try? await opened.close()   // the registration's error is the one to report
            throw error
        }
        return presence
    }

    private static func connect(_ connector: PostgresConnector, id: Int, logger: Logger) async throws -> PostgresConnection {
        do {
            return try await connector.connect(id: id, logger: logger)
        } catch {
            throw PostgresFailure.journalError(error, server: connector.description, operation: "connect")
        }
    }
}
