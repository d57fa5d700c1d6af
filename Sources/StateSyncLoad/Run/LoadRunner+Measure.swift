import NIOCore
import Synchronization

/// What the run phase measured besides the histograms.
struct MeasuredRun: Sendable {
    var runSeconds: Double
    var measuredSeconds: Double
    var ownCPUSeconds: Double
    var timeline: [LoadResult.TimelineSample]
    var serverStart: ServerProbe.Sample?
    var serverEnd: ServerProbe.Sample?
    /// The reconnect storm, when the scenario has one.
    var storm: StormOutcome?
}

extension LoadRunner {
    /// Starts the writers, samples the timeline every second through the run and the
    /// drain, then matches what is left; a due reconnect storm converges before the drain.
    func measure(
        shared: RunShared, loops: RunLoops, clients: [ConnectedClient], phase: PhaseClock, probe: ServerProbe?
    ) async throws -> MeasuredRun {
        let duration = scenario.duration
        let seconds = duration.inSeconds
        phase.enter(.running, planned: seconds)
        let cpuStart = ProcessResources.ownCPUSeconds()
        let serverStart = probe?.sample()
        let start = ContinuousClock.now
        let matching = loops.startMatching(shared)
        let writeStart = RunShared.now()
        let end = writeStart + UInt64(seconds * 1e9)
        let writers = clients.filter { $0.index < scenario.writers }
        let perWriter = writers.isEmpty ? 0 : scenario.rate / Double(writers.count)
        for writer in writers {
            let handler = writer.handler
            let loop = writer.loop
            loop.execute { handler.client.value.startWriting(rate: perWriter, start: writeStart, end: end, loop: loop) }
        }
        var timeline = TimelineSampler(start: start)
        var storm: Task<StormOutcome, Never>?
        defer { storm?.cancel() }  // only when the run is torn down early: it is awaited below
        while ContinuousClock.now < start + duration {
            try await Task.sleep(for: .milliseconds(50))
            try await timeline.sampleIfDue(loops: loops, counters: shared.counters)
            if storm == nil, let at = scenario.reconnectStormAt, ContinuousClock.now >= start + at {
                let seconds = start.duration(to: .now).inSeconds
                storm = Task { await reconnectStorm(clients, at: seconds, shared: shared, probe: probe) }
            }
        }
        let stormOutcome = await storm?.value
        phase.enter(.draining, planned: Double(scenario.drainTimeout.components.seconds))
        let drainEnd = ContinuousClock.now + scenario.drainTimeout
        while ContinuousClock.now < drainEnd, !Self.drained(shared) {
            try await Task.sleep(for: .milliseconds(20))
            try await timeline.sampleIfDue(loops: loops, counters: shared.counters)
        }
        let measured = start.duration(to: .now)
        let cpu = ProcessResources.ownCPUSeconds() - cpuStart
        let serverEnd = probe?.sample()
        matching.forEach { $0.cancel() }
        // Whatever is still unanswered will not be: match everything left.
        _ = try await loops.withEachRecorder { recorder in
            recorder.match(ledgers: shared.ledgers, watermark: AnswerWatermark.clear, counters: shared.counters)
        }
        return MeasuredRun(
            runSeconds: seconds,
            measuredSeconds: measured.inSeconds,
            ownCPUSeconds: cpu, timeline: timeline.samples, serverStart: serverStart, serverEnd: serverEnd, storm: stormOutcome)
    }

    /// Every writer done, every action answered and every expected delivery counted.
    private static func drained(_ shared: RunShared) -> Bool {
        let counters = shared.counters
        return counters.writing.load(ordering: .acquiring) == 0
            && shared.watermark.value == AnswerWatermark.clear
            && counters.acked.current + counters.rejected.current == counters.sent.current
            && counters.deliveries.current >= counters.expectedDeliveries.current
    }
}
