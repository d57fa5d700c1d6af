/// Counters a ``SyncEngine`` keeps for metrics, read with
/// ``SyncEngine/statistics``. All counts are totals since the engine started;
/// an exporter (the session layer's swift-metrics bridge) reports deltas.
///
/// ```swift
/// let stats = engine.statistics
/// gauge.record(stats.acceptedActions)
/// ```
public struct EngineStatistics: Sendable, Hashable {
    /// Client actions applied and durable (acked).
    public var acceptedActions: UInt64 = 0
    /// Client actions rejected (by the reducer, as undecodable, or because
    /// the journal failed).
    public var rejectedActions: UInt64 = 0
    /// Repeated `(clientId, id)` dispatches answered from remembered outcomes.
    public var duplicateDispatches: UInt64 = 0
    /// Journal appends (each one transaction and one fsync).
    public var journalAppends: UInt64 = 0
    /// `patch` messages sent.
    public var patchesSent: UInt64 = 0
    /// Bytes of `patch` messages sent (a frame shared by many sinks counts per sink).
    public var patchBytesSent: UInt64 = 0
    /// Bytes of patch frames built (a frame shared by many sinks counts once).
    public var patchBytesProduced: UInt64 = 0
    /// `snapshot` messages sent (subscriptions, resumes out of the window, slow consumers).
    public var snapshotsSent: UInt64 = 0
    /// Times a session went above the high-water mark and became a slow consumer.
    public var slowConsumers: UInt64 = 0
    /// Sum of the times from `dispatch` to `ack`, in nanoseconds (divide by
    /// ``acceptedActions`` + ``rejectedActions`` for the mean).
    public var dispatchToAnswerNanoseconds: UInt64 = 0
    /// The longest time from `dispatch` to its answer, in nanoseconds.
    public var maxDispatchToAnswerNanoseconds: UInt64 = 0

    /// All zero.
    public init() {}
}
