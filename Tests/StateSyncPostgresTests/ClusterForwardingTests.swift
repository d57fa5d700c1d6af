import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// One writer per store, end to end over real `statesync serve --postgres`
/// nodes (forwarding is the default): a node that does not hold `main`'s
/// lease sends its sessions' dispatches to the node that does, answers each once it has published
/// its revision, and writes them itself when the writer is gone.
@Suite(.timeLimit(.minutes(2)))
struct ClusterForwardingTests {
    @Test func aNodeThatDoesNotWriteTheStoreForwardsItsDispatchesAndReadsItsOwnWrites() async throws {
        try await TestCluster.with(nodes: 2) { cluster in
            let (writer, other) = try await cluster.writerAndOther()
            let client = try await ProtocolClient.joined(other.url, clientID: "c-forwarded")
            for index in 1...50 {
                try await client.send(#"{"type":"dispatch","id":"a\#(index)","action":{"type":"increment","counter":"n"}}"#)
            }
            var revisions: [String: Int64] = [:]
            while revisions.count < 50 {
                let answer = try await client.receive("ack")
                revisions[try #require(answer["id"]?.stringValue)] = try #require(answer["rev"]?.int64Value)
            }
            #expect(Set(revisions.values).count == 50, "each at its own revision")
            // A read right after the acks, on the node that forwarded them, sees them all.
            try await client.send(#"{"type":"get","id":"g","path":"/counters/n"}"#)
            #expect(try await client.receive("value")["value"]?.int64Value == 50)
            #expect(try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: other.port) == 50)
            #expect(try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: writer.port) ?? 0 == 0)
            // Sent again (as after a lost answer): the first outcome, from the writer.
            try await client.send(#"{"type":"dispatch","id":"a7","action":{"type":"increment","counter":"n"}}"#)
            let again = try await client.receive("ack")
            #expect(again["rev"]?.int64Value == revisions["a7"], "\(again), first ack at \(revisions["a7"] ?? 0)")
            try await client.close()
        }
    }

    @Test func dispatchesGoOnWhenTheWriterIsKilled() async throws {
        try await TestCluster.with(nodes: 2) { cluster in
            let (writer, other, client) = try await Self.aForwardedAck(in: cluster, clientID: "c-survivor", id: "before")
            writer.process.send(SIGKILL)
            // Forwarded to a writer that is gone: written here instead, each once.
            for index in 1...20 {
                try await client.send(#"{"type":"dispatch","id":"after\#(index)","action":{"type":"increment","counter":"n"}}"#)
                _ = try await client.receive("ack")
            }
            try await client.send(#"{"type":"get","id":"g","path":"/counters/n"}"#)
            #expect(try await client.receive("value")["value"]?.int64Value == 21)
            _ = try await HTTPProbe.health(port: other.port, of: other.process) { $0.body["writer"]?.stringValue == "this" }
            try await client.close()
        }
    }

    /// A session's dispatches are stored in the order it sent them, also
    /// when the writer stops answering with several of them on their way:
    /// they fail together (the link's answer timeout) and are written here
    /// one after the other, in the order sent.
    @Test func dispatchesPendingAtAPausedWriterAreWrittenHereInTheOrderSent() async throws {
        try await TestCluster.with(nodes: 2) { cluster in
            let (writer, _, client) = try await Self.aForwardedAck(in: cluster, clientID: "c-ordered", id: "first")
            writer.process.send(SIGSTOP)
            let count = 20
            for index in 0..<count {
                try await client.send(#"{"type":"dispatch","id":"x\#(index)","action":{"type":"increment","counter":"n"}}"#)
            }
            for _ in 0..<count { _ = try await client.receive("ack") }
            let stored = try await PostgresQueries.actionIDs(of: "c-ordered", on: cluster.postgres)
            #expect(stored == ["first"] + (0..<count).map { "x\($0)" }, "stored in this order: \(stored)")
            writer.process.send(SIGCONT)
            try await client.close()
        }
    }

    /// The writer of `main`, the other node, and a client of the other node
    /// whose first dispatch (`id`) went through the writer and was acknowledged.
    private static func aForwardedAck(
        in cluster: TestCluster, clientID: String, id: String
    ) async throws -> (writer: ClusterNode, other: ClusterNode, client: ProtocolClient) {
        let (writer, other) = try await cluster.writerAndOther()
        let client = try await ProtocolClient.joined(other.url, clientID: clientID)
        try await client.send(#"{"type":"dispatch","id":"\#(id)","action":{"type":"increment","counter":"n"}}"#)
        _ = try await client.receive("ack")
        return (writer, other, client)
    }

    /// Every store has a lease of its own: the node that opens a store
    /// first writes it, and another node forwards that store's dispatches
    /// to it once its lease round has read who holds it.
    @Test func aNamedStoreIsWrittenByTheNodeThatOpenedItFirst() async throws {
        try await TestCluster.with(nodes: 2) { cluster in
            let (first, second) = (cluster.nodes[0], cluster.nodes[1])
            let watcher = try await ProtocolClient.joined(first.url)
            try await watcher.send(#"{"type":"subscribe","id":"s","store":"team-1","path":"/counters"}"#)
            _ = try await watcher.receive("snapshot")
            let client = try await ProtocolClient.joined(second.url, clientID: "c-team")
            // Until the second node has read the store's lease, it writes the store itself.
            var sent = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: second.port) ?? 0 == 0 {
                try #require(ContinuousClock.now < deadline, "no dispatch of team-1 was forwarded")
                sent += 1
                try await client.send(#"{"type":"dispatch","store":"team-1","id":"w\#(sent)","action":{"type":"increment","counter":"n"}}"#)
                _ = try await client.receive("ack")
            }
            let forwardedBefore = try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: second.port) ?? 0
            for index in 1...20 {
                try await client.send(#"{"type":"dispatch","store":"team-1","id":"f\#(index)","action":{"type":"increment","counter":"n"}}"#)
                _ = try await client.receive("ack")
            }
            #expect(try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: second.port) == forwardedBefore + 20)
            #expect(try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: first.port) ?? 0 == 0)
            try await client.send(#"{"type":"get","id":"g","store":"team-1","path":"/counters/n"}"#)
            #expect(try await client.receive("value")["value"]?.int64Value == Int64(sent + 20))
            // main is untouched.
            try await client.send(#"{"type":"get","id":"m","path":"/counters"}"#)
            #expect(try await client.receive("value")["value"] == [:])
            try await client.close()
            try await watcher.close()
        }
    }
}
