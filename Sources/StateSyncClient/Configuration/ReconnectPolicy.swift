/// Exponential backoff with jitter between reconnection attempts: attempt *n* (1 for the first retry) waits
/// `min(maximumDelay, initialDelay × multiplier^(n−1))` less a random share of up to ``jitter``, so clients
/// dropped at once do not all return in the same instant.
///
/// ```swift
/// ReconnectPolicy().delay(forAttempt: 1, random: 0)   // 200 ms
/// ReconnectPolicy().delay(forAttempt: 9, random: 0)   // 5 s, the maximum
/// ```
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait before the first retry. Default 200 ms: long enough not to
    /// spin against a server that is restarting, short enough to feel instant.
    public var initialDelay: Duration

    /// The longest wait. Default 5 s, which bounds how stale a mirror can be
    /// after a server comes back.
    public var maximumDelay: Duration

    /// The growth per attempt. Default 2.
    public var multiplier: Double

    /// The largest share of a delay that is randomly taken off, from 0 (no
    /// jitter) to 1. Default 0.5 ("equal jitter": every wait is between half
    /// and all of the computed delay).
    public var jitter: Double

    /// A policy with the documented defaults.
    public init(
        initialDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(5),
        multiplier: Double = 2, jitter: Double = 0.5
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// The wait before retry `attempt` (1-based), with `random` in `0..<1`
    /// choosing the share of jitter taken off.
    public func delay(forAttempt attempt: Int, random: Double = Double.random(in: 0..<1)) -> Duration {
        let initial = Self.seconds(initialDelay)
        let exponent = Double(max(attempt, 1) - 1)
        let full = min(Self.seconds(maximumDelay), initial * Self.power(multiplier, exponent))
        let share = min(max(jitter, 0), 1) * min(max(random, 0), 1)
        return .nanoseconds(Int64((full * (1 - share) * 1e9).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `base^exponent` for a whole exponent, without Foundation.
    private static func power(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(min(exponent, 64))
        while remaining > 0 {
            result *= base
            remaining -= 1
        }
        return result
    }
}
