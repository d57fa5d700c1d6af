public import NIOSSL
import NIOCore
public import StateSyncJournal
public import StateSyncSQLite

/// How a ``StateSyncServer`` listens, stores and limits. The default serves
/// `ws://127.0.0.1:8080/sync` from `./statesync-data` with no authentication.
///
/// ```swift
/// var configuration = StateSyncServerConfiguration(port: 0, storage: .memory)
/// configuration.authentication = .tokens(["s3cret": .admin])
/// configuration.session.maxSubscriptions = 1_000
/// ```
public struct StateSyncServerConfiguration: Sendable {
    /// The address to bind. Default `127.0.0.1`: nothing is exposed to the
    /// network unless asked for (`0.0.0.0` to listen everywhere).
    public var host: String
    /// The TCP port. Default 8080; `0` lets the OS choose (tests), and
    /// ``StateSyncServer/waitUntilStarted()`` reports the bound one.
    public var port: Int
    /// Where the journal lives. Default `.directory("./statesync-data")`.
    public var storage: StateSyncStorage
    /// TLS (`wss://`); `nil` (the default) serves plain `ws://`.
    public var tls: TLSConfiguration?
    /// How much history the journal keeps behind its newest snapshot, in
    /// the data directory or in memory. Default: ``JournalRetention``'s
    /// defaults (10,000 revisions, 16 MiB of actions, 8 older snapshots).
    public var retention = JournalRetention()
    /// What starting does with a journal that lost acknowledged history.
    /// Default ``DamagedJournalPolicy/refuse`` (see there why).
    public var damagedJournal = DamagedJournalPolicy.refuse
    /// Which browser origins and `Host` names are answered. Default: same
    /// origin only, and loopback names only when bound to loopback.
    public var requestPolicy = RequestPolicy()
    /// Token → role; default ``SessionAuthentication/open`` (everyone writes).
    public var authentication: SessionAuthentication
    /// Per-connection limits (message size, subscriptions, rate, idle timeout).
    public var session: SessionConfiguration
    /// A delay added to everything sent on each `/sync` connection, a
    /// development aid (`--inject-latency MS`). Default `nil`.
    public var injectedLatency: Duration?
    /// Server-wide limits: connections in all and per address, HTTP request
    /// and keep-alive timeouts, joins per address (see ``ConnectionLimits``).
    public var connections = ConnectionLimits()
    /// Batching, snapshots, history window and slow-consumer mark of the engine.
    public var engine: SyncEngineConfiguration
    /// How stores other than `main` are opened, bounded and closed (see
    /// ``StoreDirectoryConfiguration``).
    public var stores = StoreDirectoryConfiguration()
    /// Event-loop threads, each reading, writing and fanning out to its share of
    /// the connections. Default: one per core; at least 1.
    public var threads = System.coreCount
    /// Whether `/echo` (a plain WebSocket echo, for conformance suites) is
    /// served. Default `false`: it is a test aid, not part of the protocol.
    public var echo: Bool
    /// In a cluster: whether a node sends each dispatch of a store another node
    /// writes to that node (``ClusterLinks``). Default `true`; `false` writes it
    /// where received, the nodes taking turns on the store.
    public var forwardsDispatches = true
    /// The oldest app schema version a client's `hello` may declare
    /// (``ClientSchemas``). Default `nil`: the app's own `schemaVersion`.
    public var minimumClientSchema: Int?
    /// In a cluster: where the other nodes reach this one (`host:port`). Default
    /// `nil`: the listening host and port, `127.0.0.1` when bound to every address.
    public var nodeAddress: String?
    /// Static pages served beside `/sync`, `/statesync.js` and `/devtools`
    /// (e.g. an app's page at `/`). Default none: the server does not know
    /// what page suits an app; `statesync serve` adds the board page.
    public var pages: [WebPage]
    /// What `GET /metrics` serves, in the Prometheus text format, read on each
    /// request. Default `nil`: no `/metrics` route.
    public var metricsExposition: (@Sendable () -> [UInt8])?
    /// Whether `/metrics` answers admins only (`Authorization: Bearer TOKEN`
    /// with an admin token of ``authentication``). Default `false`: metrics
    /// hold counts, not state, and scrapers usually have no token.
    public var metricsAdminOnly = false
    /// Devtools API requests answered at once, server-wide; more get `503` with
    /// `Retry-After: 1`. Default 4: a page has at most three in flight, and it
    /// bounds the states time travel rebuilds on the engine's threads.
    public var maxDevtoolsRequests = 4
    /// The time sessions read for their message-rate limits; tests freeze or
    /// step it.
    package var sessionClock: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Called by each WebSocket session before it handles a received message,
    /// with the function that lets it go on. Default `nil`; tests stall sessions.
    package var sessionWillHandleMessage: (@Sendable (_ proceed: @escaping @Sendable () -> Void) -> Void)?

    /// A configuration; every argument has the default documented on its property.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        storage: StateSyncStorage = .directory("./statesync-data"),
        tls: TLSConfiguration? = nil,
        authentication: SessionAuthentication = .open,
        session: SessionConfiguration = SessionConfiguration(),
        engine: SyncEngineConfiguration = SyncEngineConfiguration(),
        echo: Bool = false,
        pages: [WebPage] = []
    ) {
        self.host = host
        self.port = port
        self.storage = storage
        self.tls = tls
        self.authentication = authentication
        self.session = session
        self.engine = engine
        self.echo = echo
        self.pages = pages
    }
}
