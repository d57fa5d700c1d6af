/// How long the server remembers the outcome of a `(clientId, id)` pair, so that a
/// re-sent dispatch gets its first answer and is never applied twice. Outcomes are
/// kept per clientId, so no client can make the server forget another's: each keeps
/// its last ``perClient`` (the journal up to twice as many), and of at most
/// ``maxClients`` clientIds, one quiet for longer than ``window`` is forgotten to make
/// room, or else a new one is refused with `too_many_clients`. Dispatches without a
/// clientId are not deduplicated; a restart counts as activity of every remembered
/// clientId. On a ``SharedJournal`` the journal decides which clientIds are forgotten.
///
/// ```swift
/// var engine = SyncEngineConfiguration()
/// engine.outcomeRetention = OutcomeRetention(perClient: 100, window: .seconds(60), maxClients: 1_000)
/// ```
public struct OutcomeRetention: Sendable, Hashable {
    /// Outcomes kept for each clientId, its most recent. Default 1,000: far more than a
    /// client has in flight when its connection drops (10,000 clientIds: ≤ ~20 million rows).
    public var perClient: Int
    /// How long after its last decided dispatch a clientId is protected from
    /// being forgotten. Default 10 minutes: longer than a client's reconnect
    /// backoff and a laptop's short sleep, so that its retries find their answers.
    public var window: Duration
    /// How many clientIds are tracked at once. Default 10,000: one per connection the
    /// server is built for; above it, quiet clientIds make room or new ones are refused.
    public var maxClients: Int

    /// A retention; every argument has the default documented on its property
    /// (each count at least 1, the window at least zero).
    public init(perClient: Int = 1_000, window: Duration = .seconds(600), maxClients: Int = 10_000) {
        self.perClient = Swift.max(1, perClient)
        self.window = Swift.max(.zero, window)
        self.maxClients = Swift.max(1, maxClients)
    }
}
