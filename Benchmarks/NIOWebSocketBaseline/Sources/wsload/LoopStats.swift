import Histogram
import NIOCore

/// Fast, non-cryptographic PRNG for the masking keys (one per event loop).
/// RFC 6455 wants unpredictable keys against proxy cache poisoning; no proxy
/// sits on loopback, and a getrandom(2) call per frame would distort the client.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        self.state &+= 0x9E37_79B9_7F4A_7C15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The figures of the connections on one event loop.
///
/// `@unchecked Sendable`: every field is read and written only on `eventLoop`
/// (by the handlers of its channels, or in a task submitted to it).
final class LoopStats: @unchecked Sendable {
    /// Latencies up to 60 s, in nanoseconds.
    static func makeHistogram() -> Histogram<UInt64> {
        Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
    }

    let eventLoop: any EventLoop
    var histogram = LoopStats.makeHistogram()
    /// Echo: round trips counted; broadcast: deliveries.
    var messages: UInt64 = 0
    var errors: UInt64 = 0
    var lastDeliveryNanos: UInt64 = 0
    var rng = SplitMix64(state: UInt64.random(in: .min ... .max))

    init(eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    @inline(__always) func record(_ nanos: UInt64) {
        if !self.histogram.record(min(nanos, 60_000_000_000)) { self.errors += 1 }
    }

    /// A copy of the figures, taken on the loop.
    func snapshot() -> EventLoopFuture<Snapshot> {
        self.eventLoop.submit {
            Snapshot(histogram: self.histogram, messages: self.messages, errors: self.errors, lastDeliveryNanos: self.lastDeliveryNanos)
        }
    }
}

/// A copy of one `LoopStats`, to merge off the loop.
struct Snapshot: Sendable {
    var histogram: Histogram<UInt64>
    var messages: UInt64
    var errors: UInt64
    var lastDeliveryNanos: UInt64
}
