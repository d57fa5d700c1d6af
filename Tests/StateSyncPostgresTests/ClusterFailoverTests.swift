import Foundation
import StateSyncClient
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Real Swift clients behind HAProxy (one URL: the balancer's) while a node
/// of three is SIGKILLed in the middle of their dispatches: HAProxy sends
/// their reconnects to the live nodes, they resume there and re-send what
/// was not acknowledged, and everything converges.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct ClusterFailoverTests {
    static let clientCount = 6
    static let actionsPerClient = 50

    @Test func clientsOfAKilledNodeFailOverThroughHAProxyAndConverge() async throws {
        try await TestCluster.with(balanced: true) { cluster in
            let url = try cluster.balancerURL
            let clients = (0..<Self.clientCount).map { StateSyncClient(configuration: Self.configuration(url, clientID: "lb-\($0)")) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients { group.addTask { try await client.run() } }
                for client in clients {
                    try await client.waitUntilOnline()
                    try await client.subscribe("/counters")
                }
                let revisions = try await withThrowingTaskGroup(of: [UInt64].self) { writers in
                    for (index, client) in clients.enumerated() {
                        writers.addTask {
                            var revisions: [UInt64] = []
                            for _ in 0..<Self.actionsPerClient {
                                revisions.append(try await client.dispatch(["type": "increment", "counter": .string("c\(index)")]))
                            }
                            return revisions
                        }
                    }
                    // SIGKILL the first node once a fifth of the actions are acknowledged.
                    for await heard in clients[0].observeStatus(\.rev) where heard >= UInt64(Self.clientCount * Self.actionsPerClient / 5) {
                        break
                    }
                    cluster.nodes[0].process.send(SIGKILL)
                    var revisions: [UInt64] = []
                    for try await acknowledged in writers { revisions += acknowledged }
                    return revisions
                }
                // Every dispatch was acknowledged once, with a revision of its own.
                #expect(revisions.count == Self.clientCount * Self.actionsPerClient)
                #expect(Set(revisions).count == revisions.count)
                #expect(clients.contains { $0.status.connections >= 2 }, "no client was on the killed node")

                // Every client's mirror equals what the store answers, once
                // the answering node has caught up with the last revision
                // acknowledged (which another node may have committed).
                let reader = clients[clients.count - 1]
                for await heard in reader.observeStatus(\.rev) where heard >= revisions.max() ?? 0 { break }
                let (rev, counters) = try await reader.get("/counters")
                for index in 0..<Self.clientCount {
                    #expect(counters["c\(index)"] == .integer(Int64(Self.actionsPerClient)), "\(counters)")
                }
                for client in clients {
                    for await heard in client.observeStatus(\.rev) where heard >= rev { break }
                    #expect(try await client.value(at: "/counters") == counters)
                }
                for client in clients { await client.close() }
                try await group.waitForAll()
            }
            // In the journal: every client's actions exactly once, revisions contiguous.
            for index in 0..<Self.clientCount {
                let ids = try await PostgresQueries.actionIDs(of: "lb-\(index)", on: cluster.postgres)
                #expect(ids.count == Self.actionsPerClient && Set(ids).count == ids.count, "lb-\(index): \(ids)")
            }
            try await ClusterChecks.expectContiguous(on: cluster.postgres)
            // The two live nodes hold the same state, byte for byte.
            let bodies = try await ClusterChecks.converged(Array(cluster.nodes.dropFirst()), on: cluster.postgres)
            #expect(bodies[0] == bodies[1], "\(bodies)")
        }
    }

    /// A client of `url` that reconnects quickly (the test waits for it).
    private static func configuration(_ url: String, clientID: String) -> StateSyncClientConfiguration {
        var configuration = StateSyncClientConfiguration(url: url)
        configuration.clientID = clientID
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
        return configuration
    }
}
