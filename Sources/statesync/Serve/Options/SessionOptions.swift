import ArgumentParser

/// `serve`'s options of the `session:` section: what one WebSocket connection may send and hold.
struct SessionOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Session.Keys

    @Option(help: ArgumentHelp(
        "The largest client message in bytes; larger ones close the connection with 1009.",
        default: ServeConfiguration.defaults.session.maxMessageBytes))
    var maxMessageBytes: Int?

    @Option(help: ArgumentHelp(
        "The deepest JSON nesting of a client message; deeper ones are refused with bad_json.",
        default: ServeConfiguration.defaults.session.maxNestingDepth))
    var maxNestingDepth: Int?

    @Option(help: ArgumentHelp("Subscriptions one connection may hold open.", default: ServeConfiguration.defaults.session.maxSubscriptions))
    var maxSubscriptions: Int?

    @Option(help: ArgumentHelp(
        "Sustained messages per second one connection may send; above it: rate_limited.",
        default: ServeConfiguration.defaults.session.messagesPerSecond))
    var messagesPerSecond: Int?

    @Option(help: ArgumentHelp("Messages one connection may send at once above the sustained rate.", default: ServeConfiguration.defaults.session.burst))
    var burst: Int?

    @Option(help: ArgumentHelp(
        "Sustained bytes per second one connection may send (bursts of twice that); above it: rate_limited.",
        default: ServeConfiguration.defaults.session.bytesPerSecond))
    var bytesPerSecond: Int?

    @Option(help: ArgumentHelp(
        "Bytes queued for one connection (the client not reading) above which it is closed with 1008.",
        default: ServeConfiguration.defaults.session.maxOutboundBytes))
    var maxOutboundBytes: Int?

    @Option(help: ArgumentHelp(
        "Pings one connection may send in a second; one more closes it with 1008 (0: no limit).",
        default: ServeConfiguration.defaults.session.maxPingsPerSecond))
    var maxPingsPerSecond: Int?

    @Option(help: ArgumentHelp(
        "Seconds a WebSocket may stay open without hello; then closed with 1008.", default: ServeConfiguration.defaults.session.helloTimeout))
    var helloTimeout: Double?

    @Option(help: ArgumentHelp(
        "Seconds without a received byte before the server pings a connection (0: never).", default: ServeConfiguration.defaults.session.pingInterval))
    var pingInterval: Double?

    @Option(help: ArgumentHelp(
        "Seconds without a received byte (pongs count) before a connection is closed with 1001 (0: never).",
        default: ServeConfiguration.defaults.session.idleTimeout))
    var idleTimeout: Double?

    @Option(help: ArgumentHelp(
        "Most tokens of a path a client sends (subscribe, get, the HTTP API).", default: ServeConfiguration.defaults.session.maxPathDepth))
    var maxPathDepth: Int?

    @Option(help: ArgumentHelp("Most bytes of a path a client sends.", default: ServeConfiguration.defaults.session.maxPathBytes))
    var maxPathBytes: Int?

    @Option(help: ArgumentHelp("Most bytes of an id or clientId a client sends.", default: ServeConfiguration.defaults.session.maxIdBytes))
    var maxIdBytes: Int?

    @Option(help: ArgumentHelp("Most characters of the name a session gives in hello.", default: ServeConfiguration.defaults.session.maxNameLength))
    var maxNameLength: Int?

    @Option(help: ArgumentHelp(
        "The oldest app schema version a client's hello may declare; older ones are refused upgrade_required (lower it only when the state still reads as they expect).",
        default: ServeConfiguration.defaults.session.minClientSchema))
    var minClientSchema: Int?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.maxMessageBytes, maxMessageBytes)
        flags.set(Keys.maxNestingDepth, maxNestingDepth)
        flags.set(Keys.maxSubscriptions, maxSubscriptions)
        flags.set(Keys.messagesPerSecond, messagesPerSecond)
        flags.set(Keys.burst, burst)
        flags.set(Keys.bytesPerSecond, bytesPerSecond)
        flags.set(Keys.maxOutboundBytes, maxOutboundBytes)
        flags.set(Keys.maxPingsPerSecond, maxPingsPerSecond)
        flags.set(Keys.helloTimeout, helloTimeout)
        flags.set(Keys.pingInterval, pingInterval)
        flags.set(Keys.idleTimeout, idleTimeout)
        flags.set(Keys.maxPathDepth, maxPathDepth)
        flags.set(Keys.maxPathBytes, maxPathBytes)
        flags.set(Keys.maxIdBytes, maxIdBytes)
        flags.set(Keys.maxNameLength, maxNameLength)
        flags.set(Keys.minClientSchema, minClientSchema)
    }
}
