import ArgumentParser

/// `serve`'s options of the `connections:` section: server-wide bounds on connections and joins.
struct ConnectionLimitOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Connections.Keys

    @Option(help: ArgumentHelp(
        "Open connections (HTTP and WebSocket) above which a new one gets 503. Each holds a descriptor: the open-file limit (ulimit -n) must exceed it by 256.", default: ServeConfiguration.defaults.connections.maxConnections))
    var maxConnections: Int?

    @Option(help: ArgumentHelp(
        "Open connections from one IP address (IPv6: one /64) above which a new one from there gets 503.",
        default: ServeConfiguration.defaults.connections.maxConnectionsPerIp))
    var maxConnectionsPerIp: Int?

    @Option(help: ArgumentHelp(
        "Sustained hellos per second from one IP address; above it: rate_limited and closed with 1008.",
        default: ServeConfiguration.defaults.connections.joinsPerSecond))
    var joinsPerSecond: Int?

    @Option(help: ArgumentHelp(
        "Hellos one IP address may send at once above the sustained rate.", default: ServeConfiguration.defaults.connections.joinBurst))
    var joinBurst: Int?

    @Option(help: ArgumentHelp(
        "IP addresses whose join rate is remembered at once; beyond it the one idle longest is forgotten.",
        default: ServeConfiguration.defaults.connections.maxTrackedAddresses))
    var maxTrackedAddresses: Int?

    @Option(help: ArgumentHelp(
        "Seconds a client has to send a whole HTTP request (an upgrade too); then 408 and closed.",
        default: ServeConfiguration.defaults.connections.requestTimeout))
    var requestTimeout: Double?

    @Option(help: ArgumentHelp(
        "Seconds an idle kept-alive HTTP connection stays open between requests.", default: ServeConfiguration.defaults.connections.keepAliveTimeout))
    var keepAliveTimeout: Double?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.maxConnections, maxConnections)
        flags.set(Keys.maxConnectionsPerIp, maxConnectionsPerIp)
        flags.set(Keys.joinsPerSecond, joinsPerSecond)
        flags.set(Keys.joinBurst, joinBurst)
        flags.set(Keys.maxTrackedAddresses, maxTrackedAddresses)
        flags.set(Keys.requestTimeout, requestTimeout)
        flags.set(Keys.keepAliveTimeout, keepAliveTimeout)
    }
}
