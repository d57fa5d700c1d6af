import Foundation
import NIOCore
import StateSyncCore
import Synchronization
import WebSocket

/// Runs a ``LoadScenario`` against a StateSync server and measures it.
///
/// All connections live on a few event loops (one per core by default): each
/// simulated client is a ``WebSocketEventLoopHandler``, with no task or thread of
/// its own. The run opens every connection (at most ``LoadScenario/connectConcurrency``
/// handshakes at once) and subscribes; writers then dispatch at the scenario's rate
/// for its duration, and the run waits up to ``LoadScenario/drainTimeout`` for the rest.
///
/// ```swift
/// let runner = LoadRunner(scenario: LoadScenario(url: "ws://127.0.0.1:8080/sync", clients: 1_000, rate: 100))
/// let result = try await runner.run { progress in print(progress.phase, progress.connected) }
/// print(result.deliveryLatency.p99, result.passed)
/// ```
public struct LoadRunner: Sendable {
    /// What to run.
    public let scenario: LoadScenario
    /// The server's process id, when it runs on this machine: its CPU and
    /// memory are then measured too.
    public let serverPID: Int32?

    /// A runner; nothing happens until ``run(progress:)``.
    public init(scenario: LoadScenario, serverPID: Int32? = nil) {
        self.scenario = scenario
        self.serverPID = serverPID
    }

    /// Runs the scenario; `progress` is called every 200 ms (from a task). Throws ``LoadScenarioError``
    /// for an inconsistent scenario, ``LoadRunError`` when no client connects; other failures are in the result.
    public func run(progress: @escaping @Sendable (LoadProgress) -> Void) async throws -> LoadResult {
        try scenario.validate()
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let loadBefore = ProcessResources.loadAverage()
        let shared = RunShared(
            scenario: scenario, counters: LoadCounters(), ledgers: (0..<scenario.storeCount).map { _ in DeliveryLedger(stores: scenario.storeCount) },
            watermark: AnswerWatermark(writers: scenario.writers), problems: ProblemLog())
        let loops = try await RunLoops.start(threads: scenario.threads, stores: scenario.storeCount)
        let phase = PhaseClock()
        let probe = serverPID.map(ServerProbe.init(pid:))
        do {
            let result = try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await Self.report(progress, phase: phase, shared: shared) }
                defer { tasks.cancelAll() }
                let serverBefore = probe?.sample()
                let ramp = await connectAll(shared: shared, loops: loops, phase: phase)
                guard !ramp.clients.isEmpty else {
                    throw LoadRunError.noConnection(url: scenario.urls.joined(separator: ","), reason: shared.problems.messages.first ?? "unknown")
                }
                let serverIdle: ServerProbe.Sample?
                if probe != nil {
                    try await Task.sleep(for: .seconds(1))  // let the server's buffers settle before reading its memory
                    serverIdle = probe?.sample()
                } else {
                    serverIdle = nil
                }
                let measured = try await measure(shared: shared, loops: loops, clients: ramp.clients, phase: phase, probe: probe)
                phase.enter(.closing, planned: nil)
                await Self.closeAll(measured.storm?.clients ?? ramp.clients, loops: loops)
                let totals = try await loops.withEachRecorder { $0.totals }
                return ResultBuilder(
                    scenario: scenario, shared: shared, startedAt: startedAt, loadBefore: loadBefore,
                    ramp: ramp, measured: measured, totals: totals,
                    server: ServerSamples(pid: serverPID, before: serverBefore, idle: serverIdle, start: measured.serverStart, end: measured.serverEnd)
                ).build()
            }
            await loops.shutdown()
            return result
        } catch {
            await loops.shutdown()
            throw error
        }
    }

    /// Reports progress every 200 ms until cancelled.
    private static func report(_ progress: @Sendable (LoadProgress) -> Void, phase: PhaseClock, shared: RunShared) async throws {
        while true {
            try await Task.sleep(for: .milliseconds(200))
            let (current, elapsed, planned) = phase.current
            let counters = shared.counters
            progress(LoadProgress(
                phase: current, connected: counters.connected.current, ready: counters.ready.current,
                failed: counters.failedConnects.current, clients: shared.scenario.clients,
                elapsed: elapsed, planned: planned, acked: counters.acked.current,
                deliveries: counters.deliveries.current, errors: counters.errors.current, gaps: counters.gaps.current))
        }
    }
}

/// The current phase and when it started (read by the progress task).
final class PhaseClock: Sendable {
    private let state = Mutex<(LoadProgress.Phase, ContinuousClock.Instant, Double?)>((.connecting, .now, nil))

    func enter(_ phase: LoadProgress.Phase, planned: Double?) {
        state.withLock { $0 = (phase, .now, planned) }
    }

    var current: (LoadProgress.Phase, Double, Double?) {
        state.withLock { state in
            let elapsed = state.1.duration(to: .now)
            return (state.0, elapsed.inSeconds, state.2)
        }
    }
}
