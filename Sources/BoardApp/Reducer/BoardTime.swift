public import Foundation

/// How the board writes times: ISO 8601 strings in UTC from `Meta.time` (never a clock, so replay
/// is exact), with milliseconds unless whole seconds. Strings, not `Date`s, so that the state
/// equals its JSON and a mirror decoded from the wire compares equal to the server's.
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
