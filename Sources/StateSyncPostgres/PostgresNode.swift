/// One `statesync serve` node of a cluster on a ``PostgresJournal``: its id and how it
/// proves it is alive (``PostgresPresence``). A dead node's sessions leave presence within
/// ``expiry`` + ``heartbeatInterval`` (20 s by default), claimed by the first live node to notice.
public struct PostgresNode: Sendable, Hashable {
    /// The node's id: random at each start, so a restarted process is a new
    /// node and its previous incarnation expires like any dead node.
    /// Default: ``randomID()``.
    public var id: String
    /// How often the node renews its heartbeat and looks for dead nodes.
    /// Default 5 s: one small `UPDATE` per node every 5 s costs PostgreSQL
    /// nothing, and it leaves room for three missed beats within the expiry.
    public var heartbeatInterval: Duration
    /// How old a heartbeat may be before its node is declared dead; longer than
    /// ``heartbeatInterval``. Default 15 s: three heartbeats, so a reconnecting node is not
    /// declared dead and a dead node's sessions go within the 30 s the cluster promises.
    public var expiry: Duration
    /// Where the other nodes reach this one (`host:port`), recorded with its store leases
    /// so that they can send it the writes of those stores. Default `nil`: none advertised.
    public var address: String?
    /// How long a store's lease lasts past its last renewal, on PostgreSQL's clock.
    /// Default 1.2 s, so a dead node's stores have a new writer within 1.5 s.
    public var leaseDuration: Duration = .milliseconds(1_200)

    /// How often the node renews its leases and tries for free ones: a quarter of
    /// ``leaseDuration``, so three renewals in a row may fail before a lease is lost.
    public var leaseRenewal: Duration { leaseDuration / 4 }

    /// A node with the documented defaults.
    public init(
        id: String = PostgresNode.randomID(), heartbeatInterval: Duration = .seconds(5), expiry: Duration = .seconds(15),
        address: String? = nil
    ) {
        self.id = id
        self.heartbeatInterval = heartbeatInterval
        self.expiry = expiry
        self.address = address
    }

    /// A new node id, `n-` and 12 hex digits from the system's secure random source.
    public static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = (generator.next() as UInt64) & 0xFFFF_FFFF_FFFF
        let digits = String(bits, radix: 16)
        return "n-" + String(repeating: "0", count: 12 - digits.count) + digits
    }
}
