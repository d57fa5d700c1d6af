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

/// The waits between retries of a failing write: `first`, then twice as long
/// each time, never more than `maximum`.
package struct RetryBackoff: Sendable, Hashable {
    /// The wait before the first retry.
    package var first: Duration
    /// The longest wait.
    package var maximum: Duration

    /// Waits from `first` doubling up to `maximum`.
    package init(first: Duration, maximum: Duration) {
        self.first = first
        self.maximum = maximum
    }

    /// The wait before retry number `attempt` (1 for the first).
    package func delay(attempt: Int) -> Duration {
        var delay = first
        for _ in 1..<max(1, attempt) {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}
