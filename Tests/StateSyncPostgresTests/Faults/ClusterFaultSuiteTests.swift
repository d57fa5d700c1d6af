import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// The cluster fault suite (issue 27): three nodes on PostgreSQL with a
/// synchronous standby; clients each incrementing their own counter one id
/// at a time, re-sending an unanswered id through another node; a
/// ``Nemesis`` that kills, pauses and cuts off the writer, terminates
/// backends, restarts PostgreSQL and fails over to the standby. Then the
/// checks: every acknowledged `(clientId, id)` applied exactly once and
/// none lost, every node at the same state and revision, no client saw a
/// revision go backwards within an epoch, and the others went on
/// acknowledging through every fault of one node.
///
/// `scripts/cluster-faults` runs the long form (`STATESYNC_FAULT_SECONDS`,
/// 600 there) and prints its phases; `scripts/test` runs one short cycle.
@Suite(.timeLimit(.minutes(20)), .serialized)
struct ClusterFaultSuiteTests {
    /// The run's length: one short cycle unless `STATESYNC_FAULT_SECONDS` says.
    static let seconds = ProcessInfo.processInfo.environment["STATESYNC_FAULT_SECONDS"].flatMap { Int($0) }
    static let nemesis = seconds == nil
        ? Nemesis(faultLength: .seconds(9), calmLength: .seconds(2))
        : Nemesis(faultLength: .seconds(20), calmLength: .seconds(10))
    static let clientCount = seconds == nil ? 9 : 24
    /// The longest the cluster may go without any ack while one node is
    /// hit: the lease's expiry (1.2 s), a forward's wait (2 s), a client's
    /// wait before it moves on (3 s), with slack for a loaded machine.
    static let longestStandstill = Duration.seconds(8)
    /// The history is kept whole, so that every action can be counted.
    static let options = ["--journal-retention", "100000000", "--journal-retention-bytes", "100000000000"]

    @Test func everyAcknowledgedActionIsAppliedOnceAndTheNodesConvergeThroughEveryFault() async throws {
        try await FaultCluster.with(nodes: 3, options: Self.options) { cluster in
            let urls = cluster.urls
            let clients = (0..<Self.clientCount).map { FaultClient(name: "f\($0)", urls: urls, first: $0 % urls.count) }
            let started = ContinuousClock.now
            let phases = try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients { group.addTask { await client.run() } }
                try await Task.sleep(for: .seconds(2))
                let phases = try await Self.nemesis.run(on: cluster, until: started + .seconds(Self.seconds ?? 0))
                for client in clients { client.stop() }
                try await group.waitForAll()
                return phases
            }
            let records = clients.map(\.seen)
            let acks = records.flatMap(\.acks).map(\.at).sorted()
            Self.report(phases, acks: acks, records: records, since: started)

            for record in records { #expect(record.problems.isEmpty, "\(record.problems)") }
            for phase in phases where phase.fault.othersKeepWriting {
                let gap = acks.longestGap(in: phase.start..<phase.end)
                #expect(gap < Self.longestStandstill, "no ack for \(gap) during \(phase.fault.rawValue)")
            }
            let bodies = try await ClusterChecks.converged(cluster.nodes, on: cluster.primary)
            #expect(Set(bodies).count == 1, "the nodes differ: \(bodies)")
            let counters = try JSONParser().parse(bodies[0])["value"]?["counters"]
            for (client, record) in zip(clients, records) {
                #expect(record.acks.map(\.number) == Array(1..<(record.acks.count + 1)), "\(client.name): acks out of order")
                #expect(counters?[client.name]?.int64Value == Int64(record.acks.count),
                        "\(client.name): counter \(String(describing: counters?[client.name])), \(record.acks.count) acked")
                let ids = try await PostgresQueries.actionIDs(of: client.name, on: cluster.primary)
                #expect(ids == (0..<record.acks.count).map { "\(client.name)-\($0 + 1)" },
                        "\(client.name): stored \(ids.count) ids for \(record.acks.count) acks")
            }
            try await ClusterChecks.expectContiguous(on: cluster.primary)
        }
    }

    /// Prints each phase (what, where, acks in it, the longest stretch
    /// without one) and the totals, for RELIABILITY.md.
    static func report(
        _ phases: [Nemesis.Phase], acks: [ContinuousClock.Instant], records: [FaultClient.Record], since start: ContinuousClock.Instant
    ) {
        func seconds(_ duration: Duration) -> String { String(format: "%.2f", Double(duration.components.seconds)
            + Double(duration.components.attoseconds) / 1e18) }
        var lines = ["| at (s) | fault | node | length (s) | acks | longest without an ack (s) |", "|---|---|---|---|---|---|"]
        for phase in phases {
            let inside = acks.filter { (phase.start..<phase.end).contains($0) }.count
            lines.append("| \(seconds(phase.start - start)) | \(phase.fault.rawValue) | \(phase.node.map { "\($0)" } ?? "all") "
                + "| \(seconds(phase.end - phase.start)) | \(inside) | \(seconds(acks.longestGap(in: phase.start..<phase.end))) |")
        }
        let resends = records.map(\.resends).reduce(0, +), connections = records.map(\.connections).reduce(0, +)
        lines.append("")
        lines.append("FAULTS clients=\(records.count) acks=\(acks.count) resends=\(resends) connections=\(connections) phases=\(phases.count)")
        print(lines.joined(separator: "\n"))
    }
}
