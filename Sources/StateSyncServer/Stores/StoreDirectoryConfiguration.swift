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

    /// The defaults.
    public init() {}
}
