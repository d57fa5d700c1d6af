import Foundation
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The cluster the fault suite breaks: a PostgreSQL primary with a
/// synchronous streaming standby (so a failover loses no acknowledged
/// commit), one ``PostgresProxy`` per node (to cut a node off, and to move
/// every node to a promoted standby), and `statesync serve --postgres`
/// nodes that restart on their own ports.
final class FaultCluster {
    /// The server that takes writes, and its synchronous standby.
    private(set) var primary: TestPostgres
    private(set) var standby: TestPostgres
    /// Each node's way to PostgreSQL.
    private(set) var proxies: [PostgresProxy] = []
    /// The nodes, by index; a killed node is replaced by its restart.
    private(set) var nodes: [ClusterNode] = []
    private let options: [String]
    /// Servers removed at the end (a failed-over primary included).
    private var postgresServers: [TestPostgres]

    /// The nodes' WebSocket URLs, in index order.
    var urls: [String] { nodes.map(\.url) }

    private init(primary: TestPostgres, standby: TestPostgres, options: [String]) {
        self.primary = primary
        self.standby = standby
        self.options = options
        postgresServers = [primary, standby]
    }

    /// Runs `body` with `count` nodes started with `options`; then kills
    /// every node and removes every PostgreSQL server, whether `body` threw or not.
    static func with<T>(nodes count: Int, options: [String], _ body: (FaultCluster) async throws -> T) async throws -> T {
        let primary = try await TestPostgres.started()
        var cluster: FaultCluster?
        return try await withCleanup {
            let started = FaultCluster(primary: primary, standby: try await primary.standby(), options: options)
            cluster = started
            try await synchronous(primary)
            for _ in 0..<count {
                let proxy = try await PostgresProxy.start(to: primary.port)
                started.proxies.append(proxy)
                // One after the other: the first creates the schema.
                started.nodes.append(try await ClusterNode.start(url: Self.url(through: proxy), options: options))
            }
            return try await body(started)
        } cleanup: {
            for node in cluster?.nodes ?? [] {
                node.process.send(SIGCONT)
                node.process.send(SIGKILL)
                _ = await node.process.waitForExit()
            }
            for proxy in cluster?.proxies ?? [] { await proxy.close() }
            for server in cluster?.postgresServers ?? [primary] { try? await server.remove() }
        }
    }

    /// The index of the node that writes `main` by its `/health`, or 0
    /// when no node answers that it does.
    func writerOfMain() async -> Int {
        for (index, node) in nodes.enumerated() where (try? await HTTPProbe.writerOfMain(port: node.port)) == "this" {
            return index
        }
        return 0
    }

    /// SIGKILLs node `index`.
    func kill(_ index: Int) async {
        nodes[index].process.send(SIGKILL)
        _ = await nodes[index].process.waitForExit()
    }

    /// Starts node `index` again on its port, as after a crash.
    func restart(_ index: Int) async throws {
        nodes[index] = try await ClusterNode.start(
            url: Self.url(through: proxies[index]), port: nodes[index].port, options: options)
    }

    /// Ends every session of the nodes' user on the primary (the nodes'
    /// connections, not the standby's replication).
    func terminateBackends() async throws {
        try await PostgresQueries.run("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()
            """, on: primary)
    }

    /// Stops the primary at once, as a crash, and starts it again.
    func restartPostgres() async throws {
        try await primary.crash()
        try await primary.restart()
    }

    /// The primary dies; its standby is promoted, every node's proxy moves
    /// to it, and a new standby of it becomes synchronous.
    func failOver() async throws {
        try await primary.crash()
        try await standby.promote()
        // A copy of the old primary's settings: no standby to wait for yet.
        try await PostgresQueries.run("ALTER SYSTEM RESET synchronous_standby_names", on: standby)
        try await PostgresQueries.run("SELECT pg_reload_conf()", on: standby)
        for proxy in proxies { proxy.retarget(standby.port) }
        let gone = primary
        primary = standby
        standby = try await primary.standby()
        postgresServers.append(standby)
        try await Self.synchronous(primary)
        try await gone.remove()
        postgresServers.removeAll { $0 === gone }
    }

    /// Makes every commit on `primary` wait until a standby has it.
    private static func synchronous(_ primary: TestPostgres) async throws {
        try await PostgresQueries.run("ALTER SYSTEM SET synchronous_standby_names = '*'", on: primary)
        try await PostgresQueries.run("SELECT pg_reload_conf()", on: primary)
    }

    /// A `--postgres` URL that goes through `proxy`.
    private static func url(through proxy: PostgresProxy) -> String {
        "postgres://\(TestPostgres.user)@127.0.0.1:\(proxy.port)/\(TestPostgres.database)"
    }
}
