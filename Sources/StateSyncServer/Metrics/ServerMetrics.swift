public import CoreMetrics

/// The server's metrics, created once per server and reused (swift-metrics
/// handles; the backend decides how they are exported).
///
/// Names follow one scheme, `statesync_<what>[_<unit>][_total]`, as
/// Prometheus shows them:
///
/// | name | kind | meaning |
/// |---|---|---|
/// | `statesync_connections` | gauge | open sessions (after `hello`) |
/// | `statesync_actions_accepted_total` | counter | dispatches acked |
/// | `statesync_actions_rejected_total` | counter | dispatches rejected (any code) |
/// | `statesync_patches_sent_total` | counter | `patch` messages written |
/// | `statesync_bytes_sent_total` | counter | bytes of server messages written |
/// | `statesync_dispatch_ack_seconds` | histogram | `dispatch` received → `ack`/`reject` written |
/// | `statesync_slow_consumers_total` | counter | times a session went above its outbound high-water mark |
///
/// ```swift
/// let metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: registry))
/// metrics.connections.increment()
/// ```
public struct ServerMetrics: Sendable {
    /// Open sessions.
    public let connections: Meter
    /// Dispatches acked.
    public let actionsAccepted: Counter
    /// Dispatches rejected.
    public let actionsRejected: Counter
    /// `patch` messages written.
    public let patchesSent: Counter
    /// Bytes of server messages written.
    public let bytesSent: Counter
    /// Time from a `dispatch` arriving to its `ack` or `reject` being written.
    public let dispatchToAck: CoreMetrics.Timer
    /// Sessions that went above their outbound high-water mark.
    public let slowConsumers: Counter

    /// Creates the handles with `factory` (default: the process-wide
    /// `MetricsSystem.factory`, which only the executable bootstraps).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        connections = Meter(label: "statesync_connections", factory: factory)
        actionsAccepted = Counter(label: "statesync_actions_accepted_total", factory: factory)
        actionsRejected = Counter(label: "statesync_actions_rejected_total", factory: factory)
        patchesSent = Counter(label: "statesync_patches_sent_total", factory: factory)
        bytesSent = Counter(label: "statesync_bytes_sent_total", factory: factory)
        dispatchToAck = CoreMetrics.Timer(label: "statesync_dispatch_ack_seconds", factory: factory)
        slowConsumers = Counter(label: "statesync_slow_consumers_total", factory: factory)
    }
}
