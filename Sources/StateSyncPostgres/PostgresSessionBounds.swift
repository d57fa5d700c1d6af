/// How long PostgreSQL lets one of a node's sessions hold the locks it took
/// or wait for another's: the settings every connection of a
/// ``PostgresJournal`` starts with (startup parameters, so no statement is
/// spent on them and a reconnected session has them too).
///
/// A group commit holds its store's row from its compare-and-set to its
/// `COMMIT`, a few round trips. Should the node stop between them (SIGSTOP,
/// a long pause, a lost network), every other node's writer of that store
/// would wait for that row until the session ended; these bounds end it:
/// - ``idleInTransactionTimeout`` (`idle_in_transaction_session_timeout`):
///   PostgreSQL ends a session left idle inside a transaction, which rolls
///   the transaction back and frees the row. The stopped node, resumed,
///   finds its connection gone and writes again on a new one (a `COMMIT`
///   sent on it has an unknown outcome, settled by reading the head).
/// - ``lockTimeout`` (`lock_timeout`): a statement that waits longer for a
///   lock fails, and the writer retries the group after its backoff (the
///   journal's write fault says so meanwhile). Longer than the idle timeout,
///   so that a waiter normally outlasts a stopped holder's session.
/// - TCP keepalives (`tcp_keepalives_idle`, `_interval`, `_count`):
///   PostgreSQL probes a silent client's socket and ends the session of a
///   node whose host is gone or cut off, even outside a transaction.
///
/// ```swift
/// var configuration = PostgresJournal.Configuration()
/// configuration.sessionBounds.idleInTransactionTimeout = .milliseconds(500)
/// ```
public struct PostgresSessionBounds: Sendable, Hashable {
    /// How long a session may sit idle inside a transaction before
    /// PostgreSQL ends it. Default 5 s: a healthy group commit idles for a
    /// round trip at a time, so this ends a node that stopped (or was
    /// starved of CPU for that long, which then writes again on a new
    /// connection), and the other nodes' writes stand still for at most
    /// about this long.
    public var idleInTransactionTimeout: Duration
    /// How long a statement may wait for a lock before it fails. Default
    /// 8 s: longer than ``idleInTransactionTimeout`` (a stopped holder's
    /// session ends first) and shorter than the journal's statement
    /// deadline (10 s), so that PostgreSQL, not the node, ends the wait and
    /// the waiting session is left usable.
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
