/// The server-wide limits on connections and joins. Every default suits a
/// public server; raise the per-address ones for a load generator that
/// connects from one address.
///
/// ```swift
/// var configuration = StateSyncServerConfiguration(port: 0, storage: .memory)
/// configuration.connections.maxConnectionsPerAddress = 20_000   // statesync bench from one host
/// configuration.connections.joinsPerSecondPerAddress = 10_000
/// ```
public struct ConnectionLimits: Sendable, Hashable {
    /// Open TCP connections (HTTP and WebSocket) beyond which a new one is
    /// answered `503` and closed. Default 16,384. Keep it below the open-file
    /// limit (`ulimit -n`) less the server's own files.
    public var maxConnections: Int
    /// Open TCP connections from one client address (IPv6: one /64) beyond which
    /// a new one is answered `503` and closed. Default 1,024: an office behind
    /// one NAT address fits, one host takes at most a sixteenth of ``maxConnections``.
    public var maxConnectionsPerAddress: Int
    /// How long a client has to send a whole HTTP request (the upgrade included)
    /// before `408` and close, so a trickling client cannot hold a descriptor.
    /// Default 10 s.
    public var requestTimeout: Duration
    /// How long a kept-alive HTTP connection may be silent between requests
    /// before it is closed. Default 30 s: below the 60 s idle cut of common
    /// proxies, long enough for a page's polling to reuse its connection.
    public var keepAliveTimeout: Duration
    /// Sustained `hello`s per second from one client address (a token bucket);
    /// beyond it `hello` gets `rate_limited` and close 1008, so one address cannot
    /// flood `/presence` watchers. Default 20.
    public var joinsPerSecondPerAddress: Int
    /// `hello`s one address may send at once above the sustained rate.
    /// Default 200: an office behind one NAT address can all reconnect at
    /// once after a server restart.
    public var joinBurstPerAddress: Int
    /// Client addresses whose join rate is remembered at once, bounding memory
    /// under a flood; the entry idle longest is forgotten first. Default 10,000.
    public var maxTrackedAddresses: Int

    /// Limits; every argument has the default documented on its property.
    public init(
        maxConnections: Int = 16_384,
        maxConnectionsPerAddress: Int = 1_024,
        requestTimeout: Duration = .seconds(10),
        keepAliveTimeout: Duration = .seconds(30),
        joinsPerSecondPerAddress: Int = 20,
        joinBurstPerAddress: Int = 200,
        maxTrackedAddresses: Int = 10_000
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.requestTimeout = requestTimeout
        self.keepAliveTimeout = keepAliveTimeout
        self.joinsPerSecondPerAddress = joinsPerSecondPerAddress
        self.joinBurstPerAddress = joinBurstPerAddress
        self.maxTrackedAddresses = max(1, maxTrackedAddresses)
    }
}
