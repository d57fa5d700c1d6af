import StateSyncServer

extension ServeConfiguration {
    /// Server-wide bounds on connections and joins, and HTTP's timeouts
    /// (the file's `connections:` section; defaults and why: ``ConnectionLimits``).
    struct Connections: Sendable, Equatable {
        /// Open connections above which a new one gets 503. Default 16,384.
        var maxConnections = ConnectionLimits().maxConnections
        /// Open connections from one address (IPv6: one /64). Default 1,024.
        var maxConnectionsPerIp = ConnectionLimits().maxConnectionsPerAddress
        /// Sustained hellos per second from one address. Default 20.
        var joinsPerSecond = ConnectionLimits().joinsPerSecondPerAddress
        /// Hellos one address may send at once above that rate. Default 200.
        var joinBurst = ConnectionLimits().joinBurstPerAddress
        /// Addresses whose join rate is remembered at once. Default 10,000.
        var maxTrackedAddresses = ConnectionLimits().maxTrackedAddresses
        /// Seconds a client has to send a whole HTTP request. Default 10.
        var requestTimeout = ConnectionLimits().requestTimeout.inSeconds
        /// Seconds an idle kept-alive HTTP connection stays open. Default 30.
        var keepAliveTimeout = ConnectionLimits().keepAliveTimeout.inSeconds

        /// The settings of this section.
        enum Keys {
            static let maxConnections = Setting<Int>("connections.maxConnections", flag: "--max-connections")
            static let maxConnectionsPerIp = Setting<Int>("connections.maxConnectionsPerIp", flag: "--max-connections-per-ip")
            static let joinsPerSecond = Setting<Int>("connections.joinsPerSecond", flag: "--joins-per-second")
            static let joinBurst = Setting<Int>("connections.joinBurst", flag: "--join-burst")
            static let maxTrackedAddresses = Setting<Int>("connections.maxTrackedAddresses", flag: "--max-tracked-addresses")
            static let requestTimeout = Setting<Double>("connections.requestTimeout", flag: "--request-timeout")
            static let keepAliveTimeout = Setting<Double>("connections.keepAliveTimeout", flag: "--keep-alive-timeout")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.maxConnections, into: &maxConnections, .atLeast(1))
            try settings.read(Keys.maxConnectionsPerIp, into: &maxConnectionsPerIp, .atLeast(1))
            try settings.read(Keys.joinsPerSecond, into: &joinsPerSecond, .atLeast(1))
            try settings.read(Keys.joinBurst, into: &joinBurst, .atLeast(1))
            try settings.read(Keys.maxTrackedAddresses, into: &maxTrackedAddresses, .atLeast(1))
            try settings.read(Keys.requestTimeout, into: &requestTimeout, .between(0.01...86_400, "seconds"))
            try settings.read(Keys.keepAliveTimeout, into: &keepAliveTimeout, .between(0.01...86_400, "seconds"))
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.maxConnections, maxConnections),
                ConfigurationEntry(Keys.maxConnectionsPerIp, maxConnectionsPerIp),
                ConfigurationEntry(Keys.joinsPerSecond, joinsPerSecond), ConfigurationEntry(Keys.joinBurst, joinBurst),
                ConfigurationEntry(Keys.maxTrackedAddresses, maxTrackedAddresses),
                ConfigurationEntry(Keys.requestTimeout, requestTimeout), ConfigurationEntry(Keys.keepAliveTimeout, keepAliveTimeout),
            ]
        }

        /// The server's connection limits.
        var limits: ConnectionLimits {
            ConnectionLimits(
                maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerIp,
                requestTimeout: .seconds(requestTimeout), keepAliveTimeout: .seconds(keepAliveTimeout),
                joinsPerSecondPerAddress: joinsPerSecond, joinBurstPerAddress: joinBurst,
                maxTrackedAddresses: maxTrackedAddresses)
        }
    }
}
