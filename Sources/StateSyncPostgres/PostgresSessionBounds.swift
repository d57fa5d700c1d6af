/// How long PostgreSQL lets one of a node's sessions hold the locks it took or wait for
/// another's: startup parameters of every ``PostgresJournal`` connection, reconnected ones
/// too. A group commit holds its store's row until `COMMIT`; should the node stop in
/// between, these bounds end its session so the other nodes' writers go on:
/// ``idleInTransactionTimeout`` rolls the transaction back, ``lockTimeout`` fails a waiting
/// statement (retried after the backoff), and TCP keepalives end a vanished host's session.
///
/// ```swift
/// var configuration = PostgresJournal.Configuration()
/// configuration.sessionBounds.idleInTransactionTimeout = .milliseconds(500)
/// ```
public struct PostgresSessionBounds: Sendable, Hashable {
    /// How long a session may sit idle inside a transaction before PostgreSQL ends it.
    /// Default 5 s: a healthy group commit idles a round trip at a time, so this bounds how
    /// long a stopped node stalls the other nodes' writes.
    public var idleInTransactionTimeout: Duration
    /// How long a statement may wait for a lock before it fails. Default 8 s: longer than
    /// ``idleInTransactionTimeout`` (a stopped holder's session ends first) and shorter than
    /// the 10 s statement deadline, so PostgreSQL ends the wait and the session stays usable.
    public var lockTimeout: Duration
    /// How long a session's socket may be silent before PostgreSQL probes
    /// it. Default 10 s.
    public var keepaliveIdle: Duration
    /// The time between two unanswered probes. Default 2 s.
    public var keepaliveInterval: Duration
    /// Unanswered probes after which PostgreSQL ends the session. Default 3:
    /// with the defaults, a node gone from the network loses its sessions
    /// (and the locks they hold) after about 16 s.
    public var keepaliveCount: Int

    /// Bounds with the documented defaults.
    public init(
        idleInTransactionTimeout: Duration = .seconds(5), lockTimeout: Duration = .seconds(8),
        keepaliveIdle: Duration = .seconds(10), keepaliveInterval: Duration = .seconds(2), keepaliveCount: Int = 3
    ) {
        self.idleInTransactionTimeout = idleInTransactionTimeout
        self.lockTimeout = lockTimeout
        self.keepaliveIdle = keepaliveIdle
        self.keepaliveInterval = keepaliveInterval
        self.keepaliveCount = keepaliveCount
    }

    /// The settings as startup parameters: times in whole milliseconds
    /// (keepalives in whole seconds), at least 1 so that none turns a bound off.
    var startupParameters: [(String, String)] {
        [
            ("idle_in_transaction_session_timeout", "\(Self.milliseconds(idleInTransactionTimeout))"),
            ("lock_timeout", "\(Self.milliseconds(lockTimeout))"),
            ("tcp_keepalives_idle", "\(max(1, keepaliveIdle.components.seconds))"),
            ("tcp_keepalives_interval", "\(max(1, keepaliveInterval.components.seconds))"),
            ("tcp_keepalives_count", "\(max(1, keepaliveCount))"),
        ]
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
    }
}
