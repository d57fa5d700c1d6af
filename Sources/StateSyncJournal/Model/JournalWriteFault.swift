/// Why a journal's writes are failing right now, while it retries them:
/// what `/health` reports and what a dispatch refused meanwhile is told.
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

    /// A fault.
    public init(reason: String, failures: Int) {
        self.reason = reason
        self.failures = failures
    }
}
