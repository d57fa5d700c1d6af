/// A token bucket: refilled at its ``Rate`` up to the rate's capacity, one
/// token per message (or byte). A plain value: the caller passes the time and
/// the rate, so a bucket keeps only its tokens and last count time.
///
/// ```swift
/// let rate = TokenBucket.Rate(perSecond: 10, capacity: 20)
/// var bucket = TokenBucket(full: rate, now: .now)
/// bucket.take(at: rate, now: .now)   // true until 20 messages arrive at once
/// ```
struct TokenBucket: Sendable, Hashable {
    /// How fast a bucket refills and how many tokens it holds at most.
    struct Rate: Sendable, Hashable {
        /// Tokens added per second.
        let perSecond: Double
        /// The most tokens a bucket holds.
        let capacity: Double

        /// `perSecond` tokens a second, `capacity` at most (each at least 1).
        init(perSecond: Int, capacity: Int) {
            self.perSecond = Double(max(1, perSecond))
            self.capacity = Double(max(1, capacity))
        }
    }

    private var tokens: Double
    private var updated: ContinuousClock.Instant

    /// A full bucket of `rate`.
    init(full rate: Rate, now: ContinuousClock.Instant) {
        tokens = rate.capacity
        updated = now
    }

    /// Whether the bucket has refilled completely by `now` at `rate` (it then
    /// behaves like a new one, so a table of buckets may forget it).
    func isFull(at rate: Rate, now: ContinuousClock.Instant) -> Bool {
        tokens + max(0, Self.seconds(from: updated, to: now)) * rate.perSecond >= rate.capacity
    }

    /// Takes `count` tokens (default one; a message of `count` bytes, for a
    /// bucket of bytes) if there are that many at `rate`; returns whether it did.
    mutating func take(_ count: Int = 1, at rate: Rate, now: ContinuousClock.Instant) -> Bool {
        let seconds = Self.seconds(from: updated, to: now)
        if seconds > 0 {
            tokens = min(rate.capacity, tokens + seconds * rate.perSecond)
            updated = now
        }
        let wanted = Double(max(0, count))
        guard tokens >= wanted else { return false }
        tokens -= wanted
        return true
    }

    private static func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: end)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
