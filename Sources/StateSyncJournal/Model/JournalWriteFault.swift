/// Why a journal's writes are failing: right now, while it retries them
/// (what `/health` reports as `storage_failing` and what a dispatch refused
/// meanwhile is told), or for good (``isFinal``: `/health` reports `failed`
/// until the server restarts).
///
/// It names the kind of failure, never a path: it reaches clients (the
/// `unavailable` rejection) and load balancers. The full error, with the
/// path and SQLite's message, goes to the server's log.
public struct JournalWriteFault: Sendable, Hashable {
    /// The failure in a few words, without paths: "the disk is full" or
    /// "a disk I/O error".
    public var reason: String
    /// Failed attempts since the last successful write.
    public var failures: Int
    /// Whether the journal gave up: it accepts no more writes until it is
    /// opened again (the server restarted).
    public var isFinal: Bool

    /// A fault; `isFinal` when the journal gave up.
    public init(reason: String, failures: Int, isFinal: Bool = false) {
        self.reason = reason
        self.failures = failures
        self.isFinal = isFinal
    }
}
