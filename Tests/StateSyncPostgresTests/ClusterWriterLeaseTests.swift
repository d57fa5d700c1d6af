import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// One writer per store across real `statesync serve --postgres` nodes: one
/// node holds `main`'s lease and `/health` says which; when the holder is
/// SIGKILLed, another node takes the store at the lease's expiry.
@Suite(.timeLimit(.minutes(2)))
struct ClusterWriterLeaseTests {
    @Test func oneNodeWritesMainAndAnotherTakesItWhenTheWriterIsKilled() async throws {
        try await TestCluster.with(nodes: 2) { cluster in
            // Each node says who writes main, once both have heard.
            let writers = try await cluster.writersOfMain()
            let holder = try #require(writers.firstIndex(of: "this"), "no node writes main: \(writers)")
            let survivor = 1 - holder
            #expect(writers[survivor].hasPrefix("n-"), "the other node names the writer: \(writers)")
            #expect(writers.count { $0 == "this" } == 1, "two writers: \(writers)")

            let killed = ContinuousClock.now
            cluster.nodes[holder].process.send(SIGKILL)
            let node = cluster.nodes[survivor]
            _ = try await HTTPProbe.health(port: node.port, of: node.process) { $0.body["writer"]?.stringValue == "this" }
            // The default lease lasts 1.2 s past its last renewal and is tried for every 0.3 s.
            let took = ContinuousClock.now - killed
            #expect(took < .seconds(10), "the store stayed without a writer for \(took)")
            print("ClusterWriterLeaseTests: main had a new writer \(took) after its writer was killed")
        }
    }

    /// A node on another machine is reached at the address it is told to
    /// advertise, not at the one it listens on.
    @Test func theWriterRecordsTheAddressItWasToldToAdvertise() async throws {
        try await TestCluster.with(nodes: 1, options: ["--node-address", "node-a.internal:7443"]) { cluster in
            let node = cluster.nodes[0]
            _ = try await HTTPProbe.health(port: node.port, of: node.process) { $0.body["writer"]?.stringValue == "this" }
            // Advertised once the node listens: the next renewal records it.
            var address: String?
            let deadline = ContinuousClock.now + .seconds(10)
            while address != "node-a.internal:7443", ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))   // nothing to await in another process's table
                address = try await PostgresQueries.text("SELECT address FROM statesync_leases", on: cluster.postgres)
            }
            #expect(address == "node-a.internal:7443")
        }
    }
}
