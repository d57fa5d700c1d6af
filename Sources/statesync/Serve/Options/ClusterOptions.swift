import ArgumentParser

/// `serve`'s options of the `cluster:` section: how a `--postgres` node follows the others.
struct ClusterOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Cluster.Keys

    @Option(help: ArgumentHelp(
        "With --postgres: seconds between reads of the open stores' heads, to follow other nodes' writes that no notification announced (0.05…60).",
        default: ServeConfiguration.defaults.cluster.pollInterval))
    var pollInterval: Double?

    @Option(help: ArgumentHelp(
        "With --postgres: seconds between this node's heartbeats in the cluster (it also looks for dead nodes then).",
        default: ServeConfiguration.defaults.cluster.presenceHeartbeat))
    var presenceHeartbeat: Double?

    @Option(help: ArgumentHelp(
        "With --postgres: seconds without a heartbeat after which a node is dead and its sessions leave presence.",
        default: ServeConfiguration.defaults.cluster.presenceExpiry))
    var presenceExpiry: Double?

    @Option(help: ArgumentHelp(
        "With --postgres: writer connections the node's stores share for their group commits (1…64); the node holds 4 more (reads, LISTEN, heartbeat, leases).",
        default: ServeConfiguration.defaults.cluster.postgresWriters))
    var postgresWriters: Int?

    @Option(help: ArgumentHelp(
        "With --postgres: seconds PostgreSQL lets a node's session sit idle inside a transaction before it ends it, so that a stopped node frees the store for the others (0.1…3600).",
        default: ServeConfiguration.defaults.cluster.postgresIdleTransactionTimeout))
    var postgresIdleTransactionTimeout: Double?

    @Option(help: ArgumentHelp(
        "With --postgres: seconds a statement may wait for another node's lock before the write is retried (0.1…3600; keep it above --postgres-idle-transaction-timeout).",
        default: ServeConfiguration.defaults.cluster.postgresLockTimeout))
    var postgresLockTimeout: Double?

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "With --postgres: send each dispatch to the node that writes its store (the holder of its lease); --no-forwarding writes it on the node that received it (docs/cluster.md).",
        default: ServeConfiguration.defaults.cluster.forwarding))
    var forwarding: Bool?

    @Option(help: "With --postgres: the HOST:PORT other nodes reach this node at, for dispatches forwarded to it (default: the host and port it listens on, 127.0.0.1 when bound to every address: nodes on one machine only).")
    var nodeAddress: String?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.pollInterval, pollInterval)
        flags.set(Keys.presenceHeartbeat, presenceHeartbeat)
        flags.set(Keys.presenceExpiry, presenceExpiry)
        flags.set(Keys.postgresWriters, postgresWriters)
        flags.set(Keys.postgresIdleTransactionTimeout, postgresIdleTransactionTimeout)
        flags.set(Keys.postgresLockTimeout, postgresLockTimeout)
        flags.set(Keys.forwarding, forwarding)
        flags.set(Keys.nodeAddress, nodeAddress)
    }
}
