public import NIOSSL
import NIOCore
public import StateSyncJournal
public import StateSyncSQLite

/// How a ``StateSyncServer`` listens, stores and limits. Every field has a
/// documented default: `StateSyncServerConfiguration()` serves
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
    /// A delay added to everything sent on each `/sync` connection, to see
    /// on one machine how clients behave far from their server (a
    /// development aid: `statesync serve --inject-latency MS`). Default
    /// `nil`: none. Held messages are not counted by the outbound limits.
    public var injectedLatency: Duration?
    /// Server-wide limits: connections in all and per address, HTTP request
    /// and keep-alive timeouts, joins per address (see ``ConnectionLimits``).
    public var connections = ConnectionLimits()
    /// Batching, snapshots, history window and slow-consumer mark of the engine.
    public var engine: SyncEngineConfiguration
    /// How stores other than `main` are opened, bounded and closed (see
    /// ``StoreDirectoryConfiguration``).
    public var stores = StoreDirectoryConfiguration()
    /// Event-loop threads: each reads and writes its share of the
    /// connections and runs their fan-out (choosing, encoding and writing
    /// their frames), while the engine's sequencer reduces, journals and
    /// diffs on a thread of its own. Default: one per core, so every core
    /// sends; at least 1.
    public var threads = System.coreCount
    /// Whether `/echo` (a plain WebSocket echo, for conformance suites) is
    /// served. Default `false`: it is a test aid, not part of the protocol.
    public var echo: Bool
    /// In a cluster (a storage whose journals are shared, with a
    /// ``StoreJournals/clusterSecret``): whether a node sends each dispatch
    /// of a store another node writes to that node (``ClusterLinks``).
    /// Default `true`; `false` writes every dispatch on the node that
    /// received it, the nodes taking turns on the store.
    public var forwardsDispatches = true
    /// The oldest app schema version a client's `hello` may declare
    /// (``ClientSchemas``). Default `nil`: the app's own `schemaVersion`, so
    /// every client that declares one reads the state as it is shaped; lower
    /// it only when the state still reads as those versions expect.
    public var minimumClientSchema: Int?
    /// In a cluster: where the other nodes reach this one (`host:port`),
    /// recorded with the leases it holds. Default `nil`: the host and port
    /// it listens on, `127.0.0.1` when bound to every address (so only
    /// nodes on the same machine reach it).
    public var nodeAddress: String?
    /// Static pages served beside `/sync`, `/statesync.js` and `/devtools`
    /// (e.g. an app's page at `/`). Default none: the server does not know
    /// what page suits an app; `statesync serve` adds the board page.
    public var pages: [WebPage]
    /// What `GET /metrics` serves: the metrics in the Prometheus text
    /// format, read on each request. Default `nil`: no `/metrics` route (the
    /// library records through swift-metrics into whatever backend the
    /// process bootstrapped; `statesync serve` bootstraps Prometheus and sets
    /// this to its registry's output).
    public var metricsExposition: (@Sendable () -> [UInt8])?
    /// Whether `/metrics` answers admins only (`Authorization: Bearer TOKEN`
    /// with an admin token of ``authentication``). Default `false`: metrics
    /// hold counts, not state, and scrapers usually have no token.
    public var metricsAdminOnly = false
    /// How many devtools API requests (`/devtools/api/*`) are answered at
    /// once, server-wide; more get `503` with `Retry-After: 1`. Default 4:
    /// an open devtools page has at most three in flight (the journal, the
    /// sessions, a state it travels to), while time travel (each request
    /// rebuilds a state, replaying up to a snapshot interval of actions on
    /// the threads the engine runs on) never holds more than four rebuilt
    /// states nor more than four threads' worth of the engine's time.
    public var maxDevtoolsRequests = 4
    /// The time sessions read for their message-rate limits (the continuous
    /// clock): it stamps each WebSocket message as it arrives, and each HTTP
    /// request. Tests in this package freeze it so that no token refills
    /// while a slow machine runs them, or step it to space messages apart.
    package var sessionClock: @Sendable () -> ContinuousClock.Instant = { .now }
    /// Called by each WebSocket session before it handles a received
    /// message, with the function that lets the session go on (from any
    /// thread). Default `nil`. Tests stall sessions with it, as a busy
    /// server would, while messages keep arriving.
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
