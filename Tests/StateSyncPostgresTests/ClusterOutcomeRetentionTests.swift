import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Real `statesync serve --postgres` nodes sharing one store's outcomes:
/// what one node forgets by its own view of the clientIds (its table, its
/// `--max-client-ids`, its start-up) never removes what another node's
/// client may still re-send.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct ClusterOutcomeRetentionTests {
    /// The first two nodes track three clientIds; the late one two.
    static let bound = ["--max-client-ids", "3"], lateBound = ["--max-client-ids", "2"]

    /// With forwarding (the default) the first node writes every dispatch;
    /// without it each node writes its own sessions'.
    @Test(arguments: [[], ["--no-forwarding"]])
    func aNodeStartingWithMoreClientIdsThanItTracksKeepsAnotherNodesClientsOutcomes(mode: [String]) async throws {
        try await TestCluster.with(nodes: 2, options: Self.bound + mode) { cluster in
            let (first, second) = (cluster.nodes[0], cluster.nodes[1])
            // x and z dispatch through the first node, w through the second:
            // the store remembers three clientIds, x the least recent.
            let x = try await ProtocolClient.joined(first.url, clientID: "x")
            let acknowledged = try await Self.dispatch("a1", from: x)
            let z = try await ProtocolClient.joined(first.url, clientID: "z")
            _ = try await Self.dispatch("z1", from: z)
            let w = try await ProtocolClient.joined(second.url, clientID: "w")
            _ = try await Self.dispatch("w1", from: w)

            // A node starting now reads three clientIds and tracks the two
            // most recent; its first batches are durable once z's next dispatch is.
            let late = try await ClusterNode.start(cluster.postgres, Self.lateBound + mode)
            try await withCleanup {
                let zAgain = try await ProtocolClient.joined(late.url, clientID: "z")
                _ = try await Self.dispatch("z2", from: zAgain)

                // x's connection drops before its ack arrives; it re-sends
                // a1 through the second node.
                let xAgain = try await ProtocolClient.joined(second.url, clientID: "x")
                let answer = try await Self.answer(toDispatch: "a1", from: xAgain)
                #expect(answer["type"] == "ack" && answer["rev"]?.int64Value == acknowledged, "\(answer)")
                #expect(try await PostgresQueries.actionIDs(of: "x", on: cluster.postgres) == ["a1"])
                for client in [x, z, w, zAgain, xAgain] { try await client.close() }
            } cleanup: {
                late.process.send(SIGKILL)
                _ = await late.process.waitForExit()
            }
        }
    }

    /// Dispatches an increment as `id` from `client`; returns its revision.
    private static func dispatch(_ id: String, from client: ProtocolClient) async throws -> Int64? {
        let answer = try await answer(toDispatch: id, from: client)
        try #require(answer["type"] == "ack", "\(id): \(answer)")
        return answer["rev"]?.int64Value
    }

    /// Sends an increment as `id` from `client` and returns its `ack` or `reject`.
    private static func answer(toDispatch id: String, from client: ProtocolClient) async throws -> JSONValue {
        try await client.send(.object(["type": "dispatch", "id": .string(id), "action": ["type": "increment", "counter": "hits"]]))
        while true {
            let message = try await client.receive()
            if ["ack", "reject"].contains(message["type"]?.stringValue), message["id"]?.stringValue == id { return message }
        }
    }
}
