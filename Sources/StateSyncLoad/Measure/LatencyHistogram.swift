public import Histogram

/// An HdrHistogram of latencies in microseconds, from 1 µs to 100 s with
/// three significant digits (0.1 % resolution); longer values count as 100 s.
public struct LatencyHistogram: Sendable {
    /// The largest latency kept apart: 100 s, beyond any drain timeout.
    public static let highestMicroseconds: UInt64 = 100_000_000

    /// The underlying histogram (values in microseconds).
    public private(set) var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: LatencyHistogram.highestMicroseconds,
        numberOfSignificantValueDigits: .three)

    /// An empty histogram.
    public init() {}

    /// Records one latency given in nanoseconds.
    public mutating func record(nanoseconds: UInt64) {
        let micros = Swift.min(Swift.max(nanoseconds / 1_000, 1), Self.highestMicroseconds)
        _ = histogram.record(micros)  // cannot fail: the value is clamped into the trackable range
    }

    /// Adds every value of `other`.
    public mutating func add(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
    }

    /// Values recorded.
    public var count: UInt64 { histogram.totalCount }

    /// The latency at `percentile` (0…100), in milliseconds; 0 when empty.
    public func milliseconds(atPercentile percentile: Double) -> Double {
        count == 0 ? 0 : Double(histogram.valueAtPercentile(percentile)) / 1_000
    }

    /// The largest latency, in milliseconds; 0 when empty.
    public var maxMilliseconds: Double {
        count == 0 ? 0 : Double(histogram.max) / 1_000
    }

    /// The mean latency, in milliseconds; 0 when empty.
    public var meanMilliseconds: Double {
        count == 0 ? 0 : histogram.mean / 1_000
    }
}
