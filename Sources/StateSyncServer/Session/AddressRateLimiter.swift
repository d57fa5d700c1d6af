import Synchronization
import WebSocket

/// A token bucket per client address, shared by a server's sessions, for
/// joins and store creations. The table is bounded: a refilled address is
/// forgotten, and when still full, the one idle longest.
final class AddressRateLimiter: Sendable {
    private struct Entry {
        var bucket: TokenBucket
        var lastUse: ContinuousClock.Instant
    }

    private let bucketRate: TokenBucket.Rate
    private let ratePerSecond: Int
    private let capacity: Int
    private let table = Mutex<[ClientAddressKey: Entry]>([:])

    /// A limiter admitting `ratePerSecond` uses per address, bursts of `burst`,
    /// remembering at most `capacity` addresses.
    init(ratePerSecond: Int, burst: Int, capacity: Int) {
        self.ratePerSecond = ratePerSecond
        bucketRate = TokenBucket.Rate(perSecond: ratePerSecond, capacity: burst)
        self.capacity = max(1, capacity)
    }

    /// The sustained rate, for the refusal's message.
    var rate: Int { ratePerSecond }

    /// Takes a token from `address`'s bucket; returns whether there was one.
    func admit(_ address: ClientAddressKey, now: ContinuousClock.Instant) -> Bool {
        table.withLock { table in
            var entry = table[address] ?? Entry(
                bucket: TokenBucket(full: bucketRate, now: now), lastUse: now)
            let admitted = entry.bucket.take(at: bucketRate, now: now)
            entry.lastUse = now
            if table[address] == nil, table.count >= capacity {
                makeRoom(in: &table, now: now)
            }
            table[address] = entry
            return admitted
        }
    }

    /// Addresses remembered now (tests check the bound).
    var trackedAddresses: Int { table.withLock { $0.count } }

    private func makeRoom(in table: inout [ClientAddressKey: Entry], now: ContinuousClock.Instant) {
        table = table.filter { !$0.value.bucket.isFull(at: bucketRate, now: now) }
        if table.count >= capacity, let idlest = table.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            table[idlest.key] = nil
        }
    }
}
