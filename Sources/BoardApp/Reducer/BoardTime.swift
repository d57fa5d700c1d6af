public import Foundation

/// How the board writes times into its state: ISO 8601 strings in UTC,
/// formatted from `Meta.time` (never from a clock, so replay is exact).
///
/// Whole seconds are written without a fraction (`2026-11-21T10:00:00Z`),
/// other times with milliseconds (`2026-11-21T10:00:00.250Z`), as Core's
/// `JSONDateCodingStrategy.iso8601` writes dates. Times are stored as strings
/// rather than `Date`s so that the state equals its JSON exactly: a mirror
/// decoded from the wire compares equal to the server's state.
///
/// ```swift
/// BoardTime.string(from: Date(timeIntervalSince1970: 0))   // "1970-01-01T00:00:00Z"
/// ```
public enum BoardTime {
    private static let wholeSeconds = Date.ISO8601FormatStyle()
    private static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` as an ISO 8601 string in UTC.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let style = seconds.rounded(.down) == seconds ? wholeSeconds : fractionalSeconds
        return style.format(date)
    }
}
