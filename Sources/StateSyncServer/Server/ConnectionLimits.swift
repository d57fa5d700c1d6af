/// The server-wide limits on connections and joins: how many may be open,
/// how long an HTTP request may take, how often one address may join.
/// Every field has a default a public server can run with; raise the
/// per-address ones for a load generator that connects from one address.
///
/// ```swift
/// var configuration = StateSyncServerConfiguration(port: 0, storage: .memory)
/// configuration.connections.maxConnectionsPerAddress = 20_000   // statesync bench from one host
/// configuration.connections.joinsPerSecondPerAddress = 10_000
/// ```
public struct ConnectionLimits: Sendable, Hashable {
    /// Open TCP connections (HTTP and WebSocket) beyond which a new one is
    /// answered `503` and closed. Default 16,384: room for 10,000 WebSocket
    /// clients (the project's load target) and their HTTP traffic. Keep it
    /// below the process's open-file limit (`ulimit -n`), less the server's
    /// own files; beyond that limit accepts pause briefly and then resume.
    public var maxConnections: Int
    /// Open TCP connections from one client address (IPv6: one /64) beyond
    /// which a new one from there is answered `503` and closed. Default
    /// 1,024: above one person's tabs and devices and an office behind one
    /// NAT address, while one host cannot take more than a sixteenth of
    /// ``maxConnections``.
    public var maxConnectionsPerAddress: Int
    /// How long a client has to send a whole HTTP request (the upgrade
    /// included), from the accept or from the request's first byte; then
    /// `408` and closed. Default 10 s: real clients send a request at once;
    /// a client that trickles bytes holds a descriptor no longer than this.
    public var requestTimeout: Duration
    /// How long a kept-alive HTTP connection may be silent between requests
    /// before it is closed. Default 30 s: below the 60 s idle cut of common
    /// proxies, long enough for a page's polling to reuse its connection.
    public var keepAliveTimeout: Duration
    /// Sustained `hello`s per second from one client address (a token
    /// bucket per address). Each join announces a session in `/presence`,
    /// which every presence watcher receives; beyond it the `hello` gets
    /// `rate_limited` and the connection is closed with 1008. Default 20:
    /// a burst of reconnects is absorbed by ``joinBurstPerAddress``, after
    /// which one address cannot make the server announce more than this.
    public var joinsPerSecondPerAddress: Int
    /// `hello`s one address may send at once above the sustained rate.
    /// Default 200: an office behind one NAT address can all reconnect at
    /// once after a server restart.
    public var joinBurstPerAddress: Int
    /// Client addresses whose join rate is remembered at once. Default
    /// 10,000: an address is forgotten once its bucket is full again, so
    /// this bounds memory under a flood from many addresses; when every
    /// entry is busy, the one idle longest is forgotten first.
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
