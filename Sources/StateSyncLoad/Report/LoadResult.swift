/// Everything a load run measured; `--json` writes it as is.
///
/// Latencies are in milliseconds, rates per second of the run phase (the
/// time writers dispatch; answers and deliveries that arrive in the drain
/// after it count too).
public struct LoadResult: Codable, Sendable {
    /// What ran.
    public var scenario: ScenarioSummary
    /// Opening the connections.
    public var rampUp: RampUp
    /// Tallies.
    public var counts: Counts
    /// Per-second rates over the run phase.
    public var rates: Rates
    /// Dispatch → ack at the writer.
    public var ackLatency: LatencySummary
    /// Dispatch → patch at every subscriber the action concerns.
    public var deliveryLatency: LatencySummary
    /// Percentile curves for the report's distribution chart.
    public var ackDistribution: [PercentilePoint]
    public var deliveryDistribution: [PercentilePoint]
    /// One sample per second of the run and drain.
    public var timeline: [TimelineSample]
    /// The load generator's own use of the machine.
    public var generator: GeneratorUsage
    /// The server's use, when its process id is known (`--spawn-server` or `--server-pid`).
    public var server: ServerUsage?
    /// The first problems seen (errors, gaps, drops), and rejects by code.
    public var problems: [String]
    public var rejectCodes: [String: Int]
    /// The machine's 1/5/15-minute load averages before and after the run
    /// (the machine may be shared: figures mean little without them).
    public var loadAverageBefore: [Double]
    public var loadAverageAfter: [Double]
    /// When the run started (ISO 8601).
    public var startedAt: String

    /// Whether the run passed: no gaps, no errors, every expected delivery counted.
    public var passed: Bool {
        counts.gaps == 0 && counts.errors == 0 && counts.deliveries == counts.expectedDeliveries
            && rampUp.failed == 0
    }

    /// The scenario as run.
    public struct ScenarioSummary: Codable, Sendable {
        public var url: String
        public var clients: Int
        public var writers: Int
        public var rate: Double
        public var durationSeconds: Double
        public var subscriptions: [String]
        public var action: String
        public var actionPath: String
        public var threads: Int
    }

    /// How the connections opened.
    public struct RampUp: Codable, Sendable {
        public var seconds: Double
        public var connected: Int
        public var failed: Int
        public var connectionsPerSecond: Double
    }

    /// Tallies of the whole run.
    public struct Counts: Codable, Sendable {
        public var actionsSent: Int
        public var actionsSkipped: Int
        public var acked: Int
        public var rejected: Int
        public var patches: Int
        public var deliveries: Int
        public var expectedDeliveries: Int
        public var gaps: Int
        public var errors: Int
        public var droppedConnections: Int
        public var bytesReceived: Int
        public var bytesSent: Int
    }

    /// Per-second rates.
    public struct Rates: Codable, Sendable {
        public var runSeconds: Double
        public var actionsPerSecond: Double
        public var deliveriesPerSecond: Double
        public var patchesPerSecond: Double
        public var bytesReceivedPerSecond: Double
    }

    /// One histogram's summary.
    public struct LatencySummary: Codable, Sendable {
        public var count: UInt64
        public var mean: Double
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var p999: Double
        public var max: Double

        /// The summary of `histogram`.
        public init(_ histogram: LatencyHistogram) {
            count = histogram.count
            mean = histogram.meanMilliseconds
            p50 = histogram.milliseconds(atPercentile: 50)
            p90 = histogram.milliseconds(atPercentile: 90)
            p99 = histogram.milliseconds(atPercentile: 99)
            p999 = histogram.milliseconds(atPercentile: 99.9)
            max = histogram.maxMilliseconds
        }
    }

    /// A point of a percentile curve.
    public struct PercentilePoint: Codable, Sendable {
        public var percentile: Double
        public var milliseconds: Double
    }

    /// One second of the run.
    public struct TimelineSample: Codable, Sendable {
        /// Seconds since writers started.
        public var second: Double
        public var acks: Int
        public var deliveries: Int
        public var ackP50: Double
        public var ackP99: Double
        public var deliveryP50: Double
        public var deliveryP99: Double
        public var deliveryMax: Double
    }

    /// The generator's CPU and memory.
    public struct GeneratorUsage: Codable, Sendable {
        /// CPU seconds over the run phase and drain.
        public var cpuSeconds: Double
        /// Of one core over the same time (200 = both cores of a 2-core machine).
        public var cpuPercent: Double
        public var peakRSSBytes: Int
        public var threads: Int
        public var cores: Int
    }

    /// The server's CPU and memory.
    public struct ServerUsage: Codable, Sendable {
        public var pid: Int32
        /// CPU seconds over the run phase and drain, and that as a percentage of one core.
        public var cpuSeconds: Double
        public var cpuPercent: Double
        /// Resident set before the clients connected, with all of them
        /// connected and subscribed but idle, and at the end of the run.
        public var rssBeforeBytes: Int
        public var rssIdleBytes: Int
        public var rssAfterBytes: Int
        /// (idle − before) / clients.
        public var bytesPerIdleConnection: Int
        /// Server CPU microseconds per delivery (run phase).
        public var cpuMicrosecondsPerDelivery: Double
    }
}
