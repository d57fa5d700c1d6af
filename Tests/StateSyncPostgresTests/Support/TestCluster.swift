import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// A cluster of a test's own: a private PostgreSQL (``TestPostgres``),
/// `statesync serve --postgres` nodes on free ports (``ClusterNode``, with
/// the tests' high rate limits), and optionally HAProxy
/// in front of them with the repository's `deploy/haproxy/statesync.cfg`.
///
/// ```swift
/// try await TestCluster.with(balanced: true) { cluster in
///     let client = try await ProtocolClient.joined(cluster.balancerURL, clientID: "c1")
///     cluster.nodes[0].process.send(SIGKILL)
/// }
/// ```
///
/// Everything it started is killed and removed when ``with(nodes:balanced:options:_:)``
/// returns, whether the body threw or not.
final class TestCluster: Sendable {
    /// Why the cluster could not be set up.
    struct Failure: Error, CustomStringConvertible {
        /// What failed.
        let description: String
    }

    /// The nodes the repository's HAProxy configuration balances over.
    static let balancedNodeCount = 3

    /// The repository's HAProxy configuration (ports from the environment).
    static let haproxyConfiguration = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/haproxy/statesync.cfg")

    /// The shared PostgreSQL.
    let postgres: TestPostgres
    /// The nodes, in the order they started.
    let nodes: [ClusterNode]
    /// HAProxy's process and port, when the cluster is balanced.
    let balancer: (process: ServeProcess, port: Int)?

    /// `ws://127.0.0.1:PORT/sync` of HAProxy; fails the test when the cluster has none.
    var balancerURL: String {
        get throws { "ws://127.0.0.1:\(try #require(balancer, "the cluster was started without HAProxy").port)/sync" }
    }

    private init(postgres: TestPostgres, nodes: [ClusterNode], balancer: (process: ServeProcess, port: Int)?) {
        self.postgres = postgres
        self.nodes = nodes
        self.balancer = balancer
    }

    /// Runs `body` with `count` nodes (``ClusterNode/start(_:_:sourceLocation:)``
    /// with `options`) and, when `balanced`, HAProxy in front of them (which
    /// takes exactly ``balancedNodeCount`` nodes); then kills every process
    /// and removes PostgreSQL.
    static func with<T: Sendable>(
        nodes count: Int = 3, balanced: Bool = false, options: [String] = [], _ body: (TestCluster) async throws -> T
    ) async throws -> T {
        guard !balanced || count == balancedNodeCount else {
            throw Failure(description: "deploy/haproxy/statesync.cfg balances over \(balancedNodeCount) nodes, not \(count)")
        }
        return try await TestPostgres.with { postgres in
            var processes: [ServeProcess] = []
            return try await withCleanup {
                var nodes: [ClusterNode] = []
                // One after the other: the first creates the schema.
                for _ in 0..<count {
                    let node = try await ClusterNode.start(postgres, options)
                    processes.append(node.process)
                    nodes.append(node)
                }
                var balancer: (process: ServeProcess, port: Int)?
                if balanced {
                    let started = try await startHAProxy(over: nodes)
                    processes.append(started.process)
                    balancer = started
                }
                return try await body(TestCluster(postgres: postgres, nodes: nodes, balancer: balancer))
            } cleanup: {
                for process in processes {
                    process.send(SIGKILL)
                    _ = await process.waitForExit()
                }
            }
        }
    }

    /// Starts `haproxy -db` (in the foreground) with the repository's
    /// configuration on a free port; returns once it answers `/health`
    /// from a node.
    ///
    /// HAProxy cannot listen on port 0 and say which port it got, so it is
    /// given a port reserved and released just before. Another process may
    /// take that port in between (an outgoing connection's ephemeral port,
    /// as tests running in parallel make): HAProxy then exits with "Address
    /// already in use", and is started again on another port.
    private static func startHAProxy(over nodes: [ClusterNode]) async throws -> (process: ServeProcess, port: Int) {
        // Debian installs it in /usr/sbin, which a non-root PATH may lack.
        guard let haproxy = Tools.onPath("haproxy")
            ?? [URL(fileURLWithPath: "/usr/sbin/haproxy")].first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw Failure(description: "haproxy is not installed: install Debian's haproxy package (scripts/test does when it runs as root)")
        }
        return try await ReservedPort.starting { port in
            var environment = ["STATESYNC_LB_ADDRESS": "127.0.0.1", "STATESYNC_LB_PORT": "\(port)"]
            for (index, node) in nodes.enumerated() {
                environment["STATESYNC_NODE\(index + 1)"] = "127.0.0.1:\(node.port)"
            }
            let process = try ServeProcess(["-f", haproxyConfiguration.path, "-db"], executable: haproxy, environment: environment)
            do {
                _ = try await HTTPProbe.health(port: port, of: process) { $0.status == 200 }
                return (process, port)
            } catch {
                process.send(SIGKILL)
                _ = await process.waitForExit()
                let said = "HAProxy did not answer /health: \(error); its output: \(process.standardError)"
                if error is HTTPProbe.ServerExited, process.standardError.contains("Address already in use") {
                    throw ReservedPort.Taken(description: said)
                }
                throw Failure(description: said)
            }
        }
    }
}

extension TestCluster {
    /// What each node's `/health` says of who writes `main`, once every
    /// node has heard (`this`, another node's id), in the nodes' order.
    func writersOfMain() async throws -> [String] {
        var writers: [String] = []
        for node in nodes {
            let health = try await HTTPProbe.health(port: node.port, of: node.process) { answer in
                answer.body["writer"]?.stringValue.map { $0 != "unknown" } ?? false
            }
            writers.append(try #require(health.body["writer"]?.stringValue))
        }
        return writers
    }

    /// In a cluster of two: the node that writes `main`, and the other one.
    func writerAndOther() async throws -> (writer: ClusterNode, other: ClusterNode) {
        let writers = try await writersOfMain()
        let holder = try #require(writers.firstIndex(of: "this"), "no node writes main: \(writers)")
        return (nodes[holder], nodes[1 - holder])
    }
}
