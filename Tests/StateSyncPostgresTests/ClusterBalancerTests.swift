import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// HAProxy with the repository's `deploy/haproxy/statesync.cfg` in front of
/// three real `statesync serve --postgres` nodes: WebSockets and HTTP pass
/// through, new connections go to the least loaded node, and a killed node
/// gets none.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct ClusterBalancerTests {
    @Test func spreadsConnectionsOverTheNodesAndSkipsAKilledOne() async throws {
        try await TestCluster.with(balanced: true) { cluster in
            let url = try cluster.balancerURL
            // Joined one after the other: least connections puts two on each node.
            var clients: [ProtocolClient] = []
            for index in 0..<6 {
                clients.append(try await ProtocolClient.joined(url, clientID: "lb-\(index)"))
            }
            #expect(try await Self.connections(of: cluster) == [2, 2, 2])
            // Every client sees the same store, whichever node it reached.
            #expect(Set(clients.map { $0.welcome["epoch"] }).count == 1)

            cluster.nodes[0].process.send(SIGKILL)
            _ = await cluster.nodes[0].process.waitForExit()
            // New connections reach the two others only.
            for index in 6..<10 {
                clients.append(try await ProtocolClient.joined(url, clientID: "lb-\(index)"))
            }
            let live = try await Self.connections(of: cluster, nodes: [1, 2])
            #expect(live == [4, 4], "the 4 new connections went to the live nodes: \(live)")
            try await clients[9].send(#"{"type":"get","id":"g","path":"/counters"}"#)
            #expect(try await clients[9].receive("value")["type"] == "value")
        }
    }

    @Test func passesHTTPThroughAndHealthChecksTheNodes() async throws {
        try await TestCluster.with(balanced: true) { cluster in
            let port = try #require(cluster.balancer?.port)
            let health = try await HTTPProbe.health(port: port) { $0.status == 200 }
            #expect(health.body["status"] == "ok", "\(health.body)")
            // With every node killed, HAProxy answers 503 itself (no server available).
            for node in cluster.nodes {
                node.process.send(SIGKILL)
                _ = await node.process.waitForExit()
            }
            let down = try await HTTPProbe.health(port: port) { $0.status != 200 }
            #expect(down.status == 503)
        }
    }

    /// The WebSocket connections each node reports on `/health` (all
    /// nodes, or those of `indices`).
    private static func connections(of cluster: TestCluster, nodes indices: [Int]? = nil) async throws -> [Int] {
        var counts: [Int] = []
        for index in indices ?? Array(cluster.nodes.indices) {
            let health = try await HTTPProbe.health(port: cluster.nodes[index].port) { $0.status == 200 }
            counts.append(Int(try #require(health.body["connections"]?.int64Value)))
        }
        return counts
    }
}
