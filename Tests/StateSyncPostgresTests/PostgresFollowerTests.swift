import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Several real `statesync serve --postgres` nodes on one store follow
/// each other: what one node commits reaches the others' subscribers, and
/// every node's state is the same bytes at the same revision.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct PostgresFollowerTests {
    @Test func aDispatchOnOneNodeReachesASubscriberOfAnotherAndTheNodesConverge() async throws {
        try await TestPostgres.with { postgres in
            let a = try await ClusterNode.start(postgres)
            let b = try await ClusterNode.start(postgres)
            let subscriber = try await ProtocolClient.joined(b.url, clientID: "sub-b")
            try await subscriber.send(#"{"type":"subscribe","id":"s1","path":"/counters"}"#)
            #expect(try await subscriber.receive("snapshot")["value"] == .object([:]))

            let writer = try await ProtocolClient.joined(a.url, clientID: "writer-a")
            var lastRevision: Int64 = 0
            for index in 0..<3 {
                try await writer.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                               "action": ["type": "increment", "counter": "hits"]]))
                let ack = try await writer.receive("ack")
                lastRevision = try #require(ack["rev"]?.int64Value)
            }
            // B's subscriber hears each of A's revisions as patches of its slice.
            var hits: Int64?
            while hits != 3 {
                let patch = try await subscriber.receive("patch")
                #expect(patch["rev"]?.int64Value ?? 0 <= lastRevision)
                for operation in patch["ops"]?.arrayValue ?? [] where operation["path"] == "/hits" { hits = operation["value"]?.int64Value }
            }
            try await subscriber.send(#"{"type":"get","id":"g1","path":"/counters/hits"}"#)
            #expect(try await subscriber.receive("value")["value"]?.int64Value == 3)

            let bodies = try await ClusterChecks.converged([a, b], on: postgres)
            #expect(bodies[0] == bodies[1], "A: \(bodies[0])\nB: \(bodies[1])")
            #expect(bodies[0].contains(#""hits":3"#), "\(bodies[0])")
            try await ClusterChecks.expectContiguous(on: postgres)
            for node in [a, b] { await node.process.stop() }
        }
    }
}
