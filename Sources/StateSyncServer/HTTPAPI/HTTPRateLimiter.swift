import Synchronization

/// The HTTP API's message rate per client address (the WebSocket's token
/// bucket), in a table of at most ``capacity``; when full, the address seen
/// least recently is forgotten.
final class HTTPRateLimiter: Sendable {
    private struct Entry {
        var bucket: TokenBucket
        var lastSeen: UInt64
    }

    private struct Table {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// The most addresses remembered at once. 10,000: a few MB at most.
    let capacity: Int
    private let rate: TokenBucket.Rate
    private let table = Mutex(Table())

    /// A limiter of `ratePerSecond` requests a second with bursts of `burst`, per address.
    init(ratePerSecond: Int, burst: Int, capacity: Int = 10_000) {
        rate = TokenBucket.Rate(perSecond: ratePerSecond, capacity: burst)
        self.capacity = max(1, capacity)
    }

    /// Takes a token for `address`; whether the request may go on.
    func admit(_ address: String, now: ContinuousClock.Instant) -> Bool {
        table.withLock { table in
            table.clock += 1
            if var entry = table.entries[address] {
                let admitted = entry.bucket.take(at: rate, now: now)
                entry.lastSeen = table.clock
                table.entries[address] = entry
                return admitted
            }
            if table.entries.count >= capacity, let oldest = table.entries.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
                table.entries[oldest.key] = nil
            }
            var bucket = TokenBucket(full: rate, now: now)
            let admitted = bucket.take(at: rate, now: now)
            table.entries[address] = Entry(bucket: bucket, lastSeen: table.clock)
            return admitted
        }
    }

    /// Addresses remembered now (for tests).
    var count: Int { table.withLock { $0.entries.count } }
}
