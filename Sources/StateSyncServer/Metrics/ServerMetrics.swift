public import CoreMetrics
import StateSyncJournal

/// The server's metrics: swift-metrics handles created once and reused,
/// exported by whatever backend the process bootstrapped. Names follow
/// `statesync_<what>[_<unit>][_total]` (docs/operations.md, section "Metrics").
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))   // the executable, once
/// let engine = try await SyncEngine<Board>(journal: journal, metrics: ServerMetrics())
/// ```
public struct ServerMetrics: Sendable {
    /// Open sessions.
    public let connections: Meter
    /// Dispatches acked.
    public let actionsAccepted: Counter
    /// Dispatches rejected.
    public let actionsRejected: Counter
    /// Repeated dispatches answered from their earlier outcome.
    public let duplicateDispatches: Counter
    /// Journal appends.
    public let journalAppends: Counter
    /// Failed journal write attempts, retries included.
    public let journalWriteFailures: Counter
    /// `patch` messages written.
    public let patchesSent: Counter
    /// `snapshot` messages written.
    public let snapshotsSent: Counter
    /// Bytes of server messages written.
    public let bytesSent: Counter
    /// Bytes of patch frames built; against ``bytesSent`` it shows how much
    /// the fan-out shares.
    public let patchBytesBuilt: Counter
    /// Time from a `dispatch` reaching the engine to its `ack` or `reject` being sent.
    public let dispatchToAck: CoreMetrics.Timer
    /// Sessions that stopped being writable.
    public let slowConsumers: Counter
    /// Committed batches a fan-out shard published together with the one
    /// queued before them, because it was still busy: their subscribers got
    /// one patch for both.
    public let changesMerged: Counter
    /// Requests that waited for room in the engine's full queue: their
    /// sessions stopped reading until the engine caught up.
    public let engineInboxFull: Counter
    /// Dispatches this node sent to the node that writes their store (a
    /// cluster: another node holds the store's lease).
    public let dispatchesForwarded: Counter
    /// Stores open now.
    public let storesOpen: Meter
    /// Stores opened.
    public let storesOpened: Counter
    /// Stores closed.
    public let storesClosed: Counter
    /// Times accepting paused because the process or the system was out of
    /// file descriptors (or memory): clients waited in the listen backlog.
    public let acceptsPaused: Counter
    /// The factory of these handles, which makes the per-store gauges (``StoreGauges``).
    let factory: any MetricsFactory

    /// Creates the handles with `factory` (default: the process-wide
    /// `MetricsSystem.factory`, which only the executable bootstraps; tests
    /// pass a factory of their own).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        connections = Meter(label: "statesync_connections", factory: factory)
        actionsAccepted = Counter(label: "statesync_actions_accepted_total", factory: factory)
        actionsRejected = Counter(label: "statesync_actions_rejected_total", factory: factory)
        duplicateDispatches = Counter(label: "statesync_actions_duplicate_total", factory: factory)
        journalAppends = Counter(label: "statesync_journal_appends_total", factory: factory)
        journalWriteFailures = Counter(label: "statesync_journal_write_failures_total", factory: factory)
        patchesSent = Counter(label: "statesync_patches_sent_total", factory: factory)
        snapshotsSent = Counter(label: "statesync_snapshots_sent_total", factory: factory)
        bytesSent = Counter(label: "statesync_bytes_sent_total", factory: factory)
        patchBytesBuilt = Counter(label: "statesync_patch_bytes_built_total", factory: factory)
        dispatchToAck = CoreMetrics.Timer(label: "statesync_dispatch_ack_seconds", factory: factory)
        slowConsumers = Counter(label: "statesync_slow_consumers_total", factory: factory)
        changesMerged = Counter(label: "statesync_fanout_changes_merged_total", factory: factory)
        engineInboxFull = Counter(label: "statesync_engine_inbox_full_total", factory: factory)
        dispatchesForwarded = Counter(label: "statesync_cluster_dispatches_forwarded_total", factory: factory)
        storesOpen = Meter(label: "statesync_stores_open", factory: factory)
        storesOpened = Counter(label: "statesync_stores_opened_total", factory: factory)
        storesClosed = Counter(label: "statesync_stores_closed_total", factory: factory)
        acceptsPaused = Counter(label: "statesync_accepts_paused_total", factory: factory)
        self.factory = factory
    }
}

extension CoreMetrics.Timer {
    /// Records the time from `start` to `now`.
    func recordInterval(since start: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        let elapsed = (now - start).components
        recordNanoseconds(max(0, elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000))
    }
}
