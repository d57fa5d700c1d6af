/// Takes one ``LoadResult/TimelineSample`` per second: the latency
/// percentiles of that second (merged from every loop) and its tallies.
struct TimelineSampler {
    private let start: ContinuousClock.Instant
    private var next: ContinuousClock.Instant
    private var lastAcked = 0
    private var lastDeliveries = 0
    private(set) var samples: [LoadResult.TimelineSample] = []

    init(start: ContinuousClock.Instant) {
        self.start = start
        self.next = start + .seconds(1)
    }

    /// Samples when a second has passed since the last sample.
    mutating func sampleIfDue(loops: RunLoops, counters: LoadCounters) async throws {
        let now = ContinuousClock.now
        guard now >= next else { return }
        next = now + .seconds(1)
        let intervals = try await loops.withEachRecorder { $0.takeInterval() }
        var ack = LatencyHistogram()
        var delivery = LatencyHistogram()
        for interval in intervals {
            ack.add(interval.ack)
            delivery.add(interval.delivery)
        }
        let acked = counters.acked.current
        let deliveries = counters.deliveries.current
        let elapsed = start.duration(to: now)
        samples.append(LoadResult.TimelineSample(
            second: elapsed.inSeconds,
            acks: acked - lastAcked, deliveries: deliveries - lastDeliveries,
            ackP50: ack.milliseconds(atPercentile: 50), ackP99: ack.milliseconds(atPercentile: 99),
            deliveryP50: delivery.milliseconds(atPercentile: 50), deliveryP99: delivery.milliseconds(atPercentile: 99),
            deliveryMax: delivery.maxMilliseconds))
        lastAcked = acked
        lastDeliveries = deliveries
    }
}
