/// Everything a load run measured; `--json` writes it as is. Latencies are in ms,
/// rates per second of the run phase (deliveries in the drain after it count too).
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
    /// ``deliveryLatency`` to subscribers connected to the writer's own node,
    /// when the run spread its clients over several URLs (the nodes of a
    /// cluster); `nil` with one URL.
    public var sameNodeDeliveryLatency: LatencySummary?
    /// ``deliveryLatency`` to subscribers connected to another node than the
    /// writer's: dispatch on one node → patch from another (`nil` with one URL).
    public var crossNodeDeliveryLatency: LatencySummary?
    /// Dispatch → ack latency at the same percentiles as ``deliveryDistribution`` (for the report's chart).
    public var ackDistribution: [PercentilePoint]
    /// Dispatch → delivery latency at 0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 and 100 %.
    public var deliveryDistribution: [PercentilePoint]
    /// ``sameNodeDeliveryLatency`` at the same percentiles (`nil` with one URL).
    public var sameNodeDeliveryDistribution: [PercentilePoint]? = nil
    /// ``crossNodeDeliveryLatency`` at the same percentiles (`nil` with one URL).
    public var crossNodeDeliveryDistribution: [PercentilePoint]? = nil
    /// One sample per second of the run and drain.
    public var timeline: [TimelineSample]
    /// The load generator's own use of the machine.
    public var generator: GeneratorUsage
    /// The server's use, when its process id is known (`--spawn-server` or `--server-pid`).
    public var server: ServerUsage?
    /// The first problems seen (errors, gaps, drops), and rejects by code.
    public var problems: [String]
    /// Rejects by code (`rate_limited`, …).
    public var rejectCodes: [String: Int]
    /// The machine's 1/5/15-minute load averages before and after the run
    /// (the machine may be shared: figures mean little without them).
    public var loadAverageBefore: [Double]
    /// The load averages after the run.
    public var loadAverageAfter: [Double]
    /// When the run started (ISO 8601).
    public var startedAt: String
    /// Each store's delivery latency, when the run spread its clients over
    /// stores (``LoadScenario/stores``); `nil` with every client in `main`.
    public var stores: StoresSummary? = nil
    /// The reconnect storm, when the scenario had one
    /// (``LoadScenario/reconnectStormAt``); `nil` otherwise.
    public var reconnectStorm: ReconnectStorm? = nil

    /// Whether the run passed: no gaps, no errors, every expected delivery counted.
    public var passed: Bool {
        counts.gaps == 0 && counts.errors == 0 && counts.deliveries == counts.expectedDeliveries
            && rampUp.failed == 0 && reconnectStorm?.converged != false
    }

    /// The scenario as run.
    public struct ScenarioSummary: Codable, Sendable {
        /// The server's sync URL.
        public var url: String
        /// Connections asked for.
        public var clients: Int
        /// Clients that dispatch.
        public var writers: Int
        /// Actions per second asked for, all writers together.
        public var rate: Double
        /// How long writers dispatched.
        public var durationSeconds: Double
        /// Every client's subscription path templates.
        public var subscriptions: [String]
        /// The action template.
        public var action: String
        /// The path template the action changes.
        public var actionPath: String
        /// Event loops of the generator.
        public var threads: Int
    }

    /// How the connections opened.
    public struct RampUp: Codable, Sendable {
        /// From the first connect to the last client subscribed.
        public var seconds: Double
        /// Connections that opened.
        public var connected: Int
        /// Connections that did not open.
        public var failed: Int
        /// Opened connections per second of the ramp-up.
        public var connectionsPerSecond: Double
    }

    /// Tallies of the whole run.
    public struct Counts: Codable, Sendable {
        /// `dispatch` messages sent.
        public var actionsSent: Int
        /// Dispatch slots skipped because a writer had too many unanswered actions.
        public var actionsSkipped: Int
        /// `ack`s received.
        public var acked: Int
        /// `reject`s received.
        public var rejected: Int
        /// `patch` messages received (one may carry several revisions).
        public var patches: Int
        /// Revisions of the run's actions that reached a subscription they concern.
        public var deliveries: Int
        /// Deliveries the acked actions call for (per ack, the subscriptions its path concerns).
        public var expectedDeliveries: Int
        /// Patches whose `base` was not the subscription's last revision (must be 0).
        public var gaps: Int
        /// `error` messages, undecodable or unexpected messages, dropped connections, clients never subscribed.
        public var errors: Int
        /// Connections that closed before the run ended them.
        public var droppedConnections: Int
        /// Message payload bytes received.
        public var bytesReceived: Int
        /// Message payload bytes sent.
        public var bytesSent: Int
    }

    /// Per-second rates.
    public struct Rates: Codable, Sendable {
        /// The run phase's length, the denominator of the rates.
        public var runSeconds: Double
        /// Acks per second.
        public var actionsPerSecond: Double
        /// Deliveries per second.
        public var deliveriesPerSecond: Double
        /// Patch messages per second.
        public var patchesPerSecond: Double
        /// Payload bytes received per second.
        public var bytesReceivedPerSecond: Double
    }

    /// One histogram's summary.
    public struct LatencySummary: Codable, Sendable {
        /// Latencies recorded.
        public var count: UInt64
        /// Mean, in ms.
        public var mean: Double
        /// Median, in ms.
        public var p50: Double
        /// 90th percentile, in ms.
        public var p90: Double
        /// 99th percentile, in ms.
        public var p99: Double
        /// 99.9th percentile, in ms.
        public var p999: Double
        /// Largest, in ms.
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
        /// The percentile (0…100).
        public var percentile: Double
        /// The latency at it.
        public var milliseconds: Double
    }

    /// One second of the run.
    public struct TimelineSample: Codable, Sendable {
        /// Seconds since writers started.
        public var second: Double
        /// Acks received in that second.
        public var acks: Int
        /// Revisions of the run's actions that reached a subscription they concern.
        public var deliveries: Int
        /// Dispatch → ack median of that second, in ms.
        public var ackP50: Double
        /// Dispatch → ack 99th percentile of that second, in ms.
        public var ackP99: Double
        /// Dispatch → delivery median of deliveries matched in that second, in ms.
        public var deliveryP50: Double
        /// Dispatch → delivery 99th percentile of that second, in ms.
        public var deliveryP99: Double
        /// Dispatch → delivery maximum of that second, in ms.
        public var deliveryMax: Double
    }

    /// The generator's CPU and memory.
    public struct GeneratorUsage: Codable, Sendable {
        /// CPU seconds over the run phase and drain.
        public var cpuSeconds: Double
        /// Of one core over the same time (200 = both cores of a 2-core machine).
        public var cpuPercent: Double
        /// The largest resident set of the generator, in bytes.
        public var peakRSSBytes: Int
        /// Event loops of the generator.
        public var threads: Int
        /// Cores of the machine.
        public var cores: Int
    }

    /// The server's CPU and memory.
    public struct ServerUsage: Codable, Sendable {
        /// The server's process id.
        public var pid: Int32
        /// CPU seconds over the run phase and drain, and that as a percentage of one core.
        public var cpuSeconds: Double
        /// CPU as a percentage of one core over the run phase and drain.
        public var cpuPercent: Double
        /// Resident set before the clients connected, with all of them
        /// connected and subscribed but idle, and at the end of the run.
        public var rssBeforeBytes: Int
        /// Resident set with every client connected, subscribed and idle.
        public var rssIdleBytes: Int
        /// Resident set at the end of the run.
        public var rssAfterBytes: Int
        /// (idle − before) / clients.
        public var bytesPerIdleConnection: Int
        /// Server CPU microseconds per delivery (run phase).
        public var cpuMicrosecondsPerDelivery: Double
        /// The server's threads that used at least 1 % of a core over the
        /// run phase and drain, busiest first: how its work spread over the
        /// cores (Linux only; empty elsewhere).
        public var threads: [ThreadShare]
    }

    /// One server thread's CPU over the run phase and drain.
    public struct ThreadShare: Codable, Sendable, Equatable {
        /// The thread's name (e.g. `NIO-ELT-0-#1` for an event loop).
        public var name: String
        /// Its CPU as a percentage of one core.
        public var cpuPercent: Double
    }
}
