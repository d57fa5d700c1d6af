public import StateSyncProtocol

/// The bounds and timing of a server's stores (``StoreDirectory``). Every
/// field has a default.
public struct StoreDirectoryConfiguration: Sendable, Hashable {
    /// How long a store stays open with no session before it closes. Default
    /// 30 s: a page reload or reconnect still finds it open.
    public var idleTimeout: Duration = .seconds(30)
    /// Stores open at once, `main` included. Opening one more closes the least
    /// recently used idle store; when none is idle: `limit_reached`. Default 1,000.
    public var maxResidentStores: Int = 1_000
    /// The least role that may create a store that does not exist yet (any
    /// role may open one that does). Default `writer`: readers only read
    /// what writers made.
    public var createRole: Role = .writer
    /// Stores the server holds in all, open or not, `main` included.
    /// Default 100,000: a file system directory each with a data directory.
    /// Creating one more is refused `limit_reached`; delete some first.
    public var maxStores: Int = 100_000
    /// Stores one client address may create per second, sustained (IPv6 per
    /// /64); beyond it `limit_reached`. Default 10.
    public var creationsPerSecondPerAddress: Int = 10
    /// Stores one address may create at once above that rate. Default 100.
    public var creationBurstPerAddress: Int = 100
    /// Stores given their own gauges on `/metrics`: those with the most sessions,
    /// refreshed every second. Bounded to keep label count finite. Default 10; 0
    /// labels none (the totals stay).
    public var metricsTopStores: Int = 10

    /// The defaults.
    public init() {}
}
