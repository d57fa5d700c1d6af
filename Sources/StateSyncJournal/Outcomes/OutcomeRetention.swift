/// How long the server remembers the outcome of a `(clientId, id)` pair, so
/// that a re-sent dispatch gets its first answer and is never applied twice.
///
/// Outcomes are kept **per clientId**, so that nothing one client sends can
/// make the server forget another's:
///
/// - each clientId's last ``perClient`` outcomes are kept: only its own
///   dispatches (rejected ones included) push its older outcomes out. The
///   journal trims a clientId once every ``perClient`` of its outcomes, so
///   it holds between ``perClient`` and twice as many;
/// - at most ``maxClients`` clientIds are tracked. A clientId that had a
///   dispatch decided within the last ``window`` is never forgotten. When
///   the table is full and a new clientId dispatches, the least recently
///   active clientId is forgotten (all its outcomes) if it has been quiet
///   for longer than the window; otherwise the new clientId's dispatch is
///   refused with `reject` `too_many_clients` (not applied, not remembered)
///   until one has been;
/// - dispatches without a clientId are not deduplicated;
/// - the outcomes are in the journal, so all of this holds across a
///   restart, which counts as activity of every clientId the journal remembers;
/// - on a ``SharedJournal`` (a cluster) each server's table only admits (at
///   most ``maxClients`` active clientIds of its own); the journal decides
///   which clientIds the store forgets, by these numbers applied to every
///   server's use of them (PostgreSQL: `PostgresOutcomeClients`).
///
/// ```swift
/// var engine = SyncEngineConfiguration()
/// engine.outcomeRetention = OutcomeRetention(perClient: 100, window: .seconds(60), maxClients: 1_000)
/// ```
public struct OutcomeRetention: Sendable, Hashable {
    /// Outcomes kept for each clientId, its most recent. Default 1,000: far
    /// more than the dispatches a client has in flight when its connection
    /// drops (what it re-sends), small enough that 10,000 clientIds that
    /// each used their share are ~20 million journal rows at most (~2 GB
    /// on disk; `--memory` holds them in memory).
    public var perClient: Int
    /// How long after its last decided dispatch a clientId is protected from
    /// being forgotten. Default 10 minutes: longer than a client's reconnect
    /// backoff and a laptop's short sleep, so that its retries find their answers.
    public var window: Duration
    /// How many clientIds are tracked at once. Default 10,000: the number of
    /// concurrent connections the server is built for, each with a clientId
    /// of its own; above it, clientIds quiet for longer than ``window`` make
    /// room, and new ones are refused while none has been.
    public var maxClients: Int

    /// A retention; every argument has the default documented on its property
    /// (each count at least 1, the window at least zero).
    public init(perClient: Int = 1_000, window: Duration = .seconds(600), maxClients: Int = 10_000) {
        self.perClient = Swift.max(1, perClient)
        self.window = Swift.max(.zero, window)
        self.maxClients = Swift.max(1, maxClients)
    }
}
