import Foundation
import StateSyncTestSupport

/// The faults the suite inflicts on a ``FaultCluster``, one phase at a
/// time, each followed by a calm stretch, in a cycle until the run's time
/// is up.
struct Nemesis {
    /// One kind of fault.
    enum Fault: String, CaseIterable, Sendable {
        /// The node that writes `main` is SIGKILLed, and started again at the phase's end.
        case killWriter = "kill the writer"
        /// The writer is stopped (SIGSTOP) for the phase, then continued.
        case pauseWriter = "pause the writer"
        /// The writer's connections to PostgreSQL pass nothing for the
        /// phase (its clients stay connected), then end.
        case cutOffWriter = "cut the writer off from PostgreSQL"
        /// Every node's PostgreSQL session is terminated, at the phase's start and middle.
        case terminateBackends = "terminate every node's backends"
        /// PostgreSQL crashes and restarts.
        case restartPostgres = "restart PostgreSQL"
        /// The primary dies and its synchronous standby is promoted.
        case failOver = "fail over to the standby"

        /// Whether the cluster must go on acknowledging during the phase:
        /// a fault of one node must not stop the others; PostgreSQL down stops everyone.
        var othersKeepWriting: Bool { ![.restartPostgres, .failOver].contains(self) }
    }

    /// What one phase did, for the checks and the report.
    struct Phase: Sendable {
        let fault: Fault
        /// The node it hit, if one.
        let node: Int?
        let start: ContinuousClock.Instant
        let end: ContinuousClock.Instant
    }

    /// How long each fault lasts, and the calm after it.
    let faultLength: Duration
    let calmLength: Duration

    /// Inflicts the faults in turn on `cluster` until `deadline`; returns what each phase did.
    func run(on cluster: FaultCluster, until deadline: ContinuousClock.Instant) async throws -> [Phase] {
        var phases: [Phase] = []
        while true {
            for fault in Fault.allCases {
                guard ContinuousClock.now + faultLength < deadline || phases.count < Fault.allCases.count else { return phases }
                phases.append(try await inflict(fault, on: cluster))
                try await Task.sleep(for: calmLength)
            }
        }
    }

    private func inflict(_ fault: Fault, on cluster: FaultCluster) async throws -> Phase {
        let writer = await cluster.writerOfMain()
        let start = ContinuousClock.now
        var node: Int? = writer
        switch fault {
        case .killWriter:
            await cluster.kill(writer)
            try await Task.sleep(until: start + faultLength)
            try await cluster.restart(writer)
        case .pauseWriter:
            cluster.nodes[writer].process.send(SIGSTOP)
            try await Task.sleep(until: start + faultLength)
            cluster.nodes[writer].process.send(SIGCONT)
        case .cutOffWriter:
            cluster.proxies[writer].cut()
            try await Task.sleep(until: start + faultLength)
            cluster.proxies[writer].heal()
        case .terminateBackends:
            node = nil
            try await cluster.terminateBackends()
            try await Task.sleep(until: start + faultLength / 2)
            try await cluster.terminateBackends()
            try await Task.sleep(until: start + faultLength)
        case .restartPostgres:
            node = nil
            try await cluster.restartPostgres()
            try await Task.sleep(until: start + faultLength)
        case .failOver:
            node = nil
            try await cluster.failOver()
            try await Task.sleep(until: start + faultLength)
        }
        return Phase(fault: fault, node: node, start: start, end: .now)
    }
}
