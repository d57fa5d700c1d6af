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
