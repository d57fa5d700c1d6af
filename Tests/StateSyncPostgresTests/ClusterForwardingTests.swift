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
            let (writer, other) = try await cluster.writerAndOther()
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
}
