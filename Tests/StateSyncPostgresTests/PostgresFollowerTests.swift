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

    @Test func concurrentWritersOnThreeNodesWithRetriesElsewhereApplyEachPairOnceAndConverge() async throws {
        try await TestPostgres.with { postgres in
            var nodes: [ClusterNode] = []
            for _ in 0..<3 { nodes.append(try await ClusterNode.start(postgres)) }
            let perClient = 150
            let retried = 50
            // Client i streams to node i; a second session of the same clientId sends its first
            // `retried` ids again to the next node at the same time (a client failing over mid-stream).
            let streams = (0..<3).flatMap { index in
                [(clientID: "c\(index)", url: nodes[index].url, count: perClient),
                 (clientID: "c\(index)", url: nodes[(index + 1) % 3].url, count: retried)]
            }
            let answers = try await withThrowingTaskGroup(of: (String, [String: JSONValue]).self) { group in
                for stream in streams {
                    group.addTask {
                        (stream.clientID, try await Self.dispatchIncrements(count: stream.count, clientID: stream.clientID, to: stream.url))
                    }
                }
                return try await group.reduce(into: [(String, [String: JSONValue])]()) { $0.append($1) }
            }
            // Every answer is an ack, and both sessions of a pair got the same revision.
            var revisionOf: [String: Int64] = [:]
            for (clientID, byID) in answers {
                for (id, answer) in byID {
                    #expect(answer["type"] == "ack", "\(clientID)/\(id): \(answer)")
                    let rev = try #require(answer["rev"]?.int64Value)
                    if let earlier = revisionOf["\(clientID)/\(id)"] { #expect(earlier == rev, "\(clientID)/\(id) acked twice") }
                    revisionOf["\(clientID)/\(id)"] = rev
                }
            }
            #expect(Set(revisionOf.values).count == 3 * perClient, "every pair has its own revision")
            for index in 0..<3 {
                let ids = try await PostgresQueries.actionIDs(of: "c\(index)", on: postgres)
                #expect(ids.count == perClient && Set(ids) == Set((0..<perClient).map { "x\($0)" }), "c\(index): each pair once")
            }
            try await ClusterChecks.expectContiguous(on: postgres)
            let bodies = try await ClusterChecks.converged(nodes, on: postgres)
            #expect(Set(bodies).count == 1, "\(bodies)")
            #expect(bodies[0].contains(#""hits":\#(3 * perClient)"#), "\(bodies[0])")
            for node in nodes { await node.process.stop() }
        }
    }

    /// Sends `count` increments `x0`… as `clientID` to `url` without waiting,
    /// then returns each id's answer (`ack` or `reject`).
    static func dispatchIncrements(count: Int, clientID: String, to url: String) async throws -> [String: JSONValue] {
        let client = try await ProtocolClient.joined(url, clientID: clientID)
        for index in 0..<count {
            try await client.send(.object(["type": "dispatch", "id": .string("x\(index)"),
                                           "action": ["type": "increment", "counter": "hits"]]))
        }
        var answers: [String: JSONValue] = [:]
        while answers.count < count {
            let message = try await client.receive()
            if ["ack", "reject"].contains(message["type"]?.stringValue), let id = message["id"]?.stringValue { answers[id] = message }
        }
        try await client.close()
        return answers
    }
}
