/// A token bucket: `capacity` tokens, refilled at `ratePerSecond`, one taken
/// per message (or one per byte, for a byte rate). A plain value; the caller passes the time, so tests need no clock.
///
/// ```swift
/// var bucket = TokenBucket(ratePerSecond: 10, capacity: 20, now: .now)
/// bucket.take(now: .now)   // true until 20 messages arrive at once
/// ```
struct TokenBucket: Sendable, Hashable {
    /// Tokens added per second.
    let ratePerSecond: Double
    /// The most tokens the bucket holds.
    let capacity: Double
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    /// A full bucket.
    init(ratePerSecond: Int, capacity: Int, now: ContinuousClock.Instant) {
        self.ratePerSecond = Double(max(1, ratePerSecond))
        self.capacity = Double(max(1, capacity))
        self.tokens = self.capacity
        self.updated = now
    }

    /// Whether the bucket has refilled completely by `now` (it then behaves
    /// like a new one, so a table of buckets may forget it).
    func isFull(now: ContinuousClock.Instant) -> Bool {
        let elapsed = updated.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return tokens + max(0, seconds) * ratePerSecond >= capacity
    }

    /// Takes one token if there is one; returns whether it did.
    mutating func take(now: ContinuousClock.Instant) -> Bool {
        take(1, now: now)
    }

    /// Takes `count` tokens if there are that many (a message of `count`
    /// bytes, for a bucket of bytes); returns whether it did.
    mutating func take(_ count: Int, now: ContinuousClock.Instant) -> Bool {
        let elapsed = updated.duration(to: now)
        if elapsed > .zero {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(capacity, tokens + seconds * ratePerSecond)
            updated = now
        }
        let wanted = Double(max(0, count))
        guard tokens >= wanted else { return false }
        tokens -= wanted
        return true
    }
}
