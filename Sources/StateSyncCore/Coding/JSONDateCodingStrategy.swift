import Foundation

/// How ``JSONValueEncoder`` writes and ``JSONValueDecoder`` reads `Date`s. The
/// default, ``iso8601`` (`"2026-11-21T10:00:00Z"`), is readable in the
/// protocol, the CLI and thin clients, and sortable.
public struct JSONDateCodingStrategy: Sendable, Hashable {
    private enum Base: Hashable {
        case iso8601
        case secondsSince1970
        case millisecondsSince1970
        case deferredToDate
    }

    private let base: Base

    /// An ISO 8601 string in UTC: `"2026-11-21T10:00:00Z"` for whole
    /// seconds, `"2026-11-21T10:00:00.250Z"` otherwise (millisecond
    /// precision: finer fractions are lost). Reading accepts both forms.
    public static let iso8601 = JSONDateCodingStrategy(base: .iso8601)

    /// A number of seconds since 1970-01-01T00:00:00Z (may be fractional).
    public static let secondsSince1970 = JSONDateCodingStrategy(base: .secondsSince1970)

    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    public static let millisecondsSince1970 = JSONDateCodingStrategy(base: .millisecondsSince1970)

    /// Whatever `Date`'s own `Codable` does (seconds since 2001-01-01).
    public static let deferredToDate = JSONDateCodingStrategy(base: .deferredToDate)

    private static let wholeSeconds = Date.ISO8601FormatStyle()
    private static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The JSON form of `date`, or `nil` for ``deferredToDate``.
    func encode(_ date: Date) -> JSONValue? {
        switch base {
        case .iso8601:
            let seconds = date.timeIntervalSince1970
            let style = seconds.rounded(.down) == seconds ? Self.wholeSeconds : Self.fractionalSeconds
            return .string(style.format(date))
        case .secondsSince1970:
            return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            return .double(date.timeIntervalSince1970 * 1000)
        case .deferredToDate:
            return nil
        }
    }

    /// Reads a date from `value`, or returns `nil` for ``deferredToDate``.
    /// Throws a message naming the value when it is not a date.
    func decode(_ value: JSONValue) throws(JSONDateCodingStrategy.Failure) -> Date? {
        switch base {
        case .iso8601:
            guard case .string(let text) = value else { throw Failure("expected an ISO 8601 date string but found \(value.kindName) \(value)") }
            if let date = try? Self.wholeSeconds.parse(text) { return date }
            if let date = try? Self.fractionalSeconds.parse(text) { return date }
            throw Failure("\(value) is not an ISO 8601 date such as \"2026-11-21T10:00:00Z\"")
        case .secondsSince1970:
            guard let seconds = value.doubleValue else { throw Failure("expected seconds since 1970 but found \(value.kindName) \(value)") }
            return Date(timeIntervalSince1970: seconds)
        case .millisecondsSince1970:
            guard let milliseconds = value.doubleValue else { throw Failure("expected milliseconds since 1970 but found \(value.kindName) \(value)") }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        case .deferredToDate:
            return nil
        }
    }

    /// A decoding failure's message; the decoder turns it into a
    /// `DecodingError` carrying the coding path.
    struct Failure: Error {
        let message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
