/// What a running load test reports several times a second (for a progress bar).
public struct LoadProgress: Sendable {
    /// The stage of the run.
    public enum Phase: String, Sendable {
        /// Opening connections and subscribing.
        case connecting
        /// Writers dispatch.
        case running
        /// Waiting for the last answers and deliveries.
        case draining
        /// Closing connections.
        case closing
    }

    /// The current stage.
    public var phase: Phase
    /// Clients connected, subscribed (ready), and failed to connect; of ``clients``.
    public var connected: Int
    /// Clients with every snapshot received.
    public var ready: Int
    /// Connections that failed to open.
    public var failed: Int
    /// Connections asked for.
    public var clients: Int
    /// Seconds into the phase, and the phase's planned length (`nil` when open-ended).
    public var elapsed: Double
    /// The phase's planned length in seconds (`nil` when open-ended).
    public var planned: Double?
    /// Tallies so far.
    public var acked: Int
    /// Deliveries matched so far.
    public var deliveries: Int
    /// Errors so far.
    public var errors: Int
    /// Gaps so far.
    public var gaps: Int
}
