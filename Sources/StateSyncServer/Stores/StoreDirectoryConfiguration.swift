public import StateSyncProtocol

/// The bounds and timing of a server's stores (``StoreDirectory``). Every
/// field has a default.
public struct StoreDirectoryConfiguration: Sendable, Hashable {
    /// How long a store stays open with no session in it before it closes
    /// (final snapshot, memory and files released). Default 30 s: a page
    /// reload or a reconnect finds it still open; a store nobody uses costs
    /// nothing after half a minute.
    public var idleTimeout: Duration = .seconds(30)
    /// Stores open at once, `main` included. Opening one more closes the
    /// least recently used idle store first; when every open store has a
    /// session, opening another is refused `limit_reached`. Default 1,000:
    /// each open store keeps its state, its engine and (with a data
    /// directory) four file descriptors.
    public var maxResidentStores: Int = 1_000
    /// The least role that may create a store that does not exist yet (any
    /// role may open one that does). Default `writer`: readers only read
    /// what writers made.
    public var createRole: Role = .writer
    /// Stores the server holds in all, open or not, `main` included.
    /// Default 100,000: a file system directory each with a data directory.
    /// Creating one more is refused `limit_reached`; delete some first.
    public var maxStores: Int = 100_000
    /// Stores one client address may create per second, sustained (a token
    /// bucket per address; IPv6 per /64). Default 10: an app creates a
    /// store per document or match, not per message; a loop creating them
    /// is refused `limit_reached` before it fills the disk.
    public var creationsPerSecondPerAddress: Int = 10
    /// Stores one address may create at once above that rate. Default 100.
    public var creationBurstPerAddress: Int = 100
    /// Stores given gauges of their own on `/metrics` (`statesync_store_sessions{store}`,
    /// `statesync_store_revision{store}`): the open stores with the most
    /// sessions, refreshed every second; a store that leaves them loses its
    /// series. Default 10: enough to see the busiest stores, while a label
    /// per store of a server holding thousands would grow without bound.
    /// 0 labels none (the totals stay).
    public var metricsTopStores: Int = 10

    /// The defaults.
    public init() {}
}
