import StateSyncPostgres

extension ServeConfiguration {
    /// How a node with `storage.postgresURL` follows the others (the file's
    /// `cluster:` section); unused otherwise, but checked all the same.
    struct Cluster: Sendable, Equatable {
        /// Seconds between reads of the open stores' heads, to follow writes no
        /// notification announced. Default ``PostgresJournal/Configuration/pollInterval``'s (1 s).
        var pollInterval = PostgresJournal.Configuration().pollInterval.inSeconds
        /// Seconds between this node's heartbeats. Default ``PostgresNode``'s (5 s).
        var presenceHeartbeat = PostgresNode(id: "").heartbeatInterval.inSeconds
        /// Seconds without a heartbeat after which a node is dead. Default
        /// ``PostgresNode``'s (15 s: three heartbeats).
        var presenceExpiry = PostgresNode(id: "").expiry.inSeconds
        /// Writer connections to PostgreSQL that the node's stores share
        /// for their group commits. Default ``PostgresStores/Configuration/writerConnections``'s (4).
        var postgresWriters = PostgresStores.Configuration().writerConnections
        /// Seconds PostgreSQL lets the node's sessions idle inside a transaction.
        /// Default ``PostgresSessionBounds/idleInTransactionTimeout``'s (5 s).
        var postgresIdleTransactionTimeout = PostgresSessionBounds().idleInTransactionTimeout.inSeconds
        /// Seconds a statement of the node's may wait for a lock. Default
        /// ``PostgresSessionBounds/lockTimeout``'s (8 s).
        var postgresLockTimeout = PostgresSessionBounds().lockTimeout.inSeconds
        /// Whether a node sends each dispatch to the node that writes its
        /// store (the holder of its lease). Default `true`: one writer per
        /// store, so nodes do not fight over its head.
        var forwarding = true
        /// Where the other nodes reach this one (`HOST:PORT`), recorded with its leases. Default: the
        /// host and port it listens on (`127.0.0.1` when bound to all), which only local nodes reach.
        var nodeAddress: String?

        /// The settings of this section.
        enum Keys {
            static let pollInterval = Setting<Double>("cluster.pollInterval", flag: "--poll-interval")
            static let presenceHeartbeat = Setting<Double>("cluster.presenceHeartbeat", flag: "--presence-heartbeat")
            static let presenceExpiry = Setting<Double>("cluster.presenceExpiry", flag: "--presence-expiry")
            static let postgresWriters = Setting<Int>("cluster.postgresWriters", flag: "--postgres-writers")
            static let postgresIdleTransactionTimeout = Setting<Double>(
                "cluster.postgresIdleTransactionTimeout", flag: "--postgres-idle-transaction-timeout")
            static let postgresLockTimeout = Setting<Double>("cluster.postgresLockTimeout", flag: "--postgres-lock-timeout")
            static let forwarding = Setting<Bool>("cluster.forwarding", flag: "--forwarding")
            static let nodeAddress = Setting<String>("cluster.nodeAddress", flag: "--node-address")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked: the
        /// heartbeat at least 0.1 s, the expiry longer than it and at most an
        /// hour, 1 to 64 writer connections, PostgreSQL's bounds 0.1 s to an hour.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.pollInterval, into: &pollInterval, .between(0.05...60, "seconds"))
            try settings.read(Keys.presenceHeartbeat, into: &presenceHeartbeat)
            try settings.read(Keys.presenceExpiry, into: &presenceExpiry)
            try settings.read(Keys.postgresWriters, into: &postgresWriters, .between(1...64, "connections"))
            try settings.read(Keys.postgresIdleTransactionTimeout, into: &postgresIdleTransactionTimeout, .between(0.1...3_600, "seconds"))
            try settings.read(Keys.postgresLockTimeout, into: &postgresLockTimeout, .between(0.1...3_600, "seconds"))
            try settings.read(Keys.forwarding, into: &forwarding)
            var nodeAddress = ""
            try settings.read(Keys.nodeAddress, into: &nodeAddress, .hostAndPort)
            self.nodeAddress = nodeAddress.isEmpty ? nil : nodeAddress
            guard presenceHeartbeat >= 0.1, presenceExpiry > presenceHeartbeat, presenceExpiry <= 3_600 else {
                throw .presenceTimings(
                    heartbeat: settings.given(Keys.presenceHeartbeat, value: presenceHeartbeat).origin,
                    expiry: settings.given(Keys.presenceExpiry, value: presenceExpiry).origin,
                    values: "not \(presenceHeartbeat) s and \(presenceExpiry) s")
            }
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.pollInterval, pollInterval), ConfigurationEntry(Keys.presenceHeartbeat, presenceHeartbeat),
                ConfigurationEntry(Keys.presenceExpiry, presenceExpiry), ConfigurationEntry(Keys.postgresWriters, postgresWriters),
                ConfigurationEntry(Keys.postgresIdleTransactionTimeout, postgresIdleTransactionTimeout),
                ConfigurationEntry(Keys.postgresLockTimeout, postgresLockTimeout), ConfigurationEntry(Keys.forwarding, forwarding),
                ConfigurationEntry(Keys.nodeAddress, nodeAddress),
            ]
        }

        /// The bounds of the node's PostgreSQL sessions (keepalives at their defaults).
        var sessionBounds: PostgresSessionBounds {
            PostgresSessionBounds(
                idleInTransactionTimeout: .seconds(postgresIdleTransactionTimeout), lockTimeout: .seconds(postgresLockTimeout))
        }

        /// A new cluster node (random id) with these timings.
        var node: PostgresNode {
            PostgresNode(heartbeatInterval: .seconds(presenceHeartbeat), expiry: .seconds(presenceExpiry))
        }
    }
}
