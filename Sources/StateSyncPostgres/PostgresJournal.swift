public import Logging
import NIOCore
import PostgresNIO
public import StateSyncJournal
import Synchronization

/// A ``Journal`` in PostgreSQL, shared by every `statesync serve --postgres` node of
/// a store: journal, snapshots and exactly-once outcomes are rows keyed by
/// ``Configuration/storeID``, and the store's epoch and head revision live in the database.
/// Each group commit moves the head with a compare-and-set, so a node with a stale
/// view has its batch refused with ``JournalError/isRevisionGap`` and forks nothing
/// (``PostgresGroupStorage`` says why); success is reported only after `COMMIT` returned.
/// Journals of many stores share one ``PostgresStores``'s connections; one opened alone
/// has its own. Other nodes' writes are followed through ``PostgresHeadWatcher``.
///
/// ```swift
/// let journal = try await PostgresJournal.open(
///     location: try PostgresLocation(url: "postgres://statesync@127.0.0.1:5432/statesync"), logger: logger)
/// let engine = try await SyncEngine<Board>(journal: journal)
/// ```
public final class PostgresJournal: SharedJournal {
    /// What a ``PostgresJournal`` stores and keeps.
    public struct Configuration: Sendable, Hashable {
        /// The store this journal reads and writes. Default `"default"`, the
        /// id of the store `main` (``PostgresStores/storeID(of:)``).
        public var storeID: String
        /// How much history is kept behind the newest snapshot, as with
        /// ``SQLiteJournal`` (applied when a snapshot is saved). Default:
        /// ``JournalRetention``'s defaults.
        public var retention: JournalRetention
        /// How long a statement may wait for PostgreSQL's answer before the journal drops
        /// its connection (a write is retried; a timed-out `COMMIT` has an unknown outcome).
        /// Default 10 s, so a lost connection cannot hold a node's answers forever.
        public var statementTimeout: Duration
        /// How long each statement that opens the journal may take (schema DDL that may wait
        /// for another node's migration, store creation, node registration). Default 60 s.
        public var openTimeout: Duration = .seconds(60)
        /// How long the writer waits before connecting again after it lost
        /// its connection; each further failed attempt waits twice as long,
        /// up to ``maximumRetryDelay``. Default 50 ms.
        public var firstRetryDelay: Duration
        /// The longest wait between two attempts to reconnect. Default 2 s.
        public var maximumRetryDelay: Duration
        /// This server as a node of a cluster: presence kept per node with a heartbeat
        /// (``PostgresPresence``). Default `nil` (a tool, one server alone); `serve --postgres` sets it.
        public var node: PostgresNode?
        /// How often the store's head is polled for writes no notification announced: the
        /// worst follow delay when notifications fail. Default 1 s.
        public var pollInterval: Duration
        /// How long a node whose batch another node refused keeps the
        /// store locked for its redo (see `PostgresGroupStorage+Turns.swift`).
        /// Default 200 ms: a catch-up and a redo take a few milliseconds.
        public var heldTurnLimit: Duration = .milliseconds(200)
        /// How long PostgreSQL lets the node's sessions idle in a transaction or wait for a
        /// lock, and how it detects a node gone: what bounds other nodes' wait for a stopped
        /// node. Default: ``PostgresSessionBounds``'s (5 s idle, 8 s lock wait).
        public var sessionBounds = PostgresSessionBounds()
        /// Which clientIds' outcomes the store keeps (``OutcomeRetention/maxClients`` and
        /// ``OutcomeRetention/window``), applied in every group commit: give every node the
        /// engine's `outcomeRetention`, as `statesync serve` does. Default: the engine's defaults.
        public var outcomeRetention = OutcomeRetention()

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
    public var location: PostgresLocation { stores.location }

    let configuration: Configuration
    /// The node's stores, whose connections this journal shares.
    private let stores: PostgresStores
    /// Whether this journal was opened alone (``open(location:configuration:logger:writeFailed:)``):
    /// closing it closes ``stores`` too.
    private let ownsStores: Bool
    var reader: ReconnectingConnection { stores.reader }
    let logger: Logger
    private let writer: GroupCommitWriter<PostgresGroupStorage>
    /// The ``PostgresHeadWatcher``'s token for this journal once it follows.
    private let following = Mutex<Int?>(nil)
    /// The ``PostgresLeases``' token for this journal once it watches its writer.
    private let watchingWriter = Mutex<Int?>(nil)

    /// Connects to `location`, creates or migrates the schema and the store
    /// ``Configuration/storeID``: a journal alone, with its own connections (a server of
    /// many stores uses ``PostgresStores``). `writeFailed` runs on each failed write attempt.
    public static func open(
        location: PostgresLocation, configuration: Configuration = Configuration(), logger: Logger,
        writeFailed: @escaping @Sendable () -> Void = {}
    ) async throws -> PostgresJournal {
        let stores = try await PostgresStores.open(
            location: location, configuration: PostgresStores.Configuration(journal: configuration, writerConnections: 1),
            nodeStoreID: configuration.storeID, logger: logger)
        do {
            return try await stores.journal(
                storeID: configuration.storeID, ownsStores: true, logger: logger, writeFailed: writeFailed)
        } catch {
            try? await stores.close()   // the open error is the one to report
            throw error
        }
    }

    /// A journal of `stores` on the store ``Configuration/storeID`` of
    /// `configuration`, whose head is `head`.
    init(
        stores: PostgresStores, configuration: Configuration, epoch: String, head: UInt64, ownsStores: Bool,
        logger: Logger, writeFailed: @escaping @Sendable () -> Void
    ) {
        self.stores = stores
        self.configuration = configuration
        self.epoch = epoch
        self.ownsStores = ownsStores
        self.logger = logger
        let storage = PostgresGroupStorage(
            writers: stores.writers, storeID: configuration.storeID, epoch: epoch, nodeID: stores.presence?.nodeID,
            nodeFailure: stores.failure, historyLoss: stores.historyLoss, server: stores.location.description,
            heldTurnLimit: configuration.heldTurnLimit, outcomeRetention: configuration.outcomeRetention, logger: logger)
        let writer = GroupCommitWriter(
            storage: storage, lastRevision: head,
            backoff: RetryBackoff(first: configuration.firstRetryDelay, maximum: configuration.maximumRetryDelay),
            logger: logger, writeFailed: writeFailed)
        self.writer = writer
    }
    /// The store's head revision as this node last committed or read it (see
    /// ``Journal/lastRevision``): after a refused append, the head another
    /// node left.
    public var lastRevision: UInt64 { writer.durableRevision }

    /// Why writes are failing while the writer reconnects, or failed for good, this
    /// journal's or another store's of the node (``PostgresNodeFailure``), or `nil`.
    public var writeFault: JournalWriteFault? { writer.fault ?? stores.failure.fault }

    /// This node's presence in the cluster when ``Configuration/node`` is
    /// set (see ``PostgresPresence``), else `nil`. One per node: every
    /// store's journal of a ``PostgresStores`` gives the same.
    public var clusterPresence: (any ClusterPresence)? { stores.presence }

    /// The store of the node's heartbeat when there is a node (see
    /// ``sessionsOfDepartedNodes()``), else `nil`.
    var nodeStoreID: String? { stores.presence == nil ? nil : stores.nodeStoreID }

    /// Whether ``close()`` was called.
    var writerIsClosed: Bool { writer.isClosed }

    /// Why the store may be neither read nor written any more: its history
    /// went back in PostgreSQL (``PostgresHistoryLoss``); `nil` while it did not.
    var historyLost: JournalError? { stores.historyLoss.error(of: configuration.storeID) }

    /// Follows the store through the node's ``PostgresHeadWatcher``: `hint` gets each head
    /// past ``lastRevision`` it learns of. ``close()`` stops it; a second call does nothing.
    public func follow(hint: @escaping @Sendable (UInt64) -> Void) {
        let writer = writer
        following.withLock { token in
            guard token == nil, !writerIsClosed else { return }
            token = stores.watcher.follow(
                storeID: configuration.storeID, epoch: epoch, lastRevision: { writer.durableRevision }, hint: hint)
        }
    }

    /// Takes part in the store's lease (``PostgresLeases``) when ``Configuration/node`` is
    /// set, else `change` is never called. ``close()`` stops it and gives the lease up.
    public func watchWriter(_ change: @escaping @Sendable (StoreWriter) -> Void) {
        watchingWriter.withLock { token in
            guard token == nil, !writerIsClosed, let leases = stores.leases else { return }
            token = leases.watch(storeID: configuration.storeID, change: change)
        }
    }

    /// Gives up the store's lease and takes it no more (see
    /// ``SharedJournal/stopWriting()``): the writer is then another node.
    public func stopWriting() {
        if let token = watchingWriter.withLock({ token in defer { token = nil }; return token }) {
            stores.leases?.unwatch(token)
        }
    }

    /// The engine applied every entry through `revision`: the next group
    /// commit's compare-and-set starts from it (see ``SharedJournal/caughtUp(through:)``).
    public func caughtUp(through revision: UInt64) {
        writer.caughtUp(through: revision)
    }

    /// Queues `batch` for the next group commit; the completion runs on the writer's task
    /// after `COMMIT`, and a refused batch fails with ``JournalError/isRevisionGap``.
    public func append(_ batch: JournalBatch, completion: @escaping @Sendable (Result<Void, JournalError>) -> Void) {
        writer.enqueue(.batch(batch, completion))
    }

    /// Waits for pending writes and stops following; the shared connections stay open
    /// unless this journal was opened alone: then its node leaves and they close.
    public func close() async throws {
        let wasOpen: Bool
        do {
            wasOpen = try await writer.close()
        } catch {
            await end()
            throw error
        }
        guard wasOpen else { return }
        await end()
        logger.info("PostgreSQL journal closed", metadata: ["server": "\(location)", "store": "\(configuration.storeID)"])
    }

    /// Stops following and, when this journal was opened alone, closes its
    /// stores (their errors are logged: the journal's writes are what a
    /// caller of ``close()`` must hear about).
    private func end() async {
        if let token = following.withLock({ token in defer { token = nil }; return token }) {
            stores.watcher.unfollow(token)
        }
        stopWriting()
        guard ownsStores else { return }
        do {
            try await stores.close()
        } catch {
            logger.warning("closing the PostgreSQL connections failed", metadata: ["error": "\(error)"])
        }
    }
}
