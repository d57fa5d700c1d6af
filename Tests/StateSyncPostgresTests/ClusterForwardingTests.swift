import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// One writer per store, end to end over real `statesync serve --postgres
/// --forwarding` nodes: a node that does not hold `main`'s lease sends its sessions'
/// dispatches to the node that does, answers each once it has published
/// its revision, and writes them itself when the writer is gone.
@Suite(.timeLimit(.minutes(2)))
struct ClusterForwardingTests {
    @Test func aNodeThatDoesNotWriteTheStoreForwardsItsDispatchesAndReadsItsOwnWrites() async throws {
        try await TestCluster.with(nodes: 2, options: ["--forwarding"]) { cluster in
            let (writer, other) = try await Self.writerAndOther(of: cluster)
            let client = try await ProtocolClient.joined(other.url, clientID: "c-forwarded")
            for index in 1...50 {
                try await client.send(#"{"type":"dispatch","id":"a\#(index)","action":{"type":"increment","counter":"n"}}"#)
            }
            var revisions: [Int64] = []
            while revisions.count < 50 {
                let answer = try await client.receive("ack")
                revisions.append(try #require(answer["rev"]?.int64Value))
            }
            #expect(revisions == revisions.sorted(), "acks in the order sent")
            // A read right after the acks, on the node that forwarded them, sees them all.
            try await client.send(#"{"type":"get","id":"g","path":"/counters/n"}"#)
            #expect(try await client.receive("value")["value"]?.int64Value == 50)
            #expect(try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: other.port) == 50)
            #expect(try await HTTPProbe.metric("statesync_cluster_dispatches_forwarded_total", port: writer.port) ?? 0 == 0)
            // Sent again (as after a lost answer): the first outcome, from the writer.
            try await client.send(#"{"type":"dispatch","id":"a7","action":{"type":"increment","counter":"n"}}"#)
            #expect(try await client.receive("ack")["rev"]?.int64Value == revisions[6])
            try await client.close()
        }
    }

    @Test func dispatchesGoOnWhenTheWriterIsKilled() async throws {
        try await TestCluster.with(nodes: 2, options: ["--forwarding"]) { cluster in
            let (writer, other) = try await Self.writerAndOther(of: cluster)
            let client = try await ProtocolClient.joined(other.url, clientID: "c-survivor")
            try await client.send(#"{"type":"dispatch","id":"before","action":{"type":"increment","counter":"n"}}"#)
            _ = try await client.receive("ack")
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

    /// The node that writes `main` and the other one, once both say so in `/health`.
    private static func writerAndOther(of cluster: TestCluster) async throws -> (writer: ClusterNode, other: ClusterNode) {
        var writers: [String] = []
        for node in cluster.nodes {
            let health = try await HTTPProbe.health(port: node.port, of: node.process) { answer in
                answer.body["writer"]?.stringValue.map { $0 != "unknown" } ?? false
            }
            writers.append(try #require(health.body["writer"]?.stringValue))
        }
        let holder = try #require(writers.firstIndex(of: "this"), "no node writes main: \(writers)")
        return (cluster.nodes[holder], cluster.nodes[1 - holder])
    }
}
