import Foundation

/// Decodes `Decodable` values straight from a ``JSONValue`` tree (no JSON
/// text in between).
///
/// - Integer types accept any number whose value they can hold exactly:
///   `3` and `3.0` decode as `UInt8` 3; `300` or `1.5` fail with
///   `DecodingError.dataCorrupted` naming the value and the type.
/// - `Double` accepts integers (nearest double); `Float` fails for values
///   beyond its range.
/// - `null` or a missing key for a non-optional fails with `valueNotFound` /
///   `keyNotFound`; `decodeIfPresent` (synthesized for optionals) gives
///   `nil` for both.
/// - `Date` follows ``dateCodingStrategy`` (ISO 8601 by default), `Data`
///   reads Base64, `URL` a string, and a `JSONValue` is taken as it is.
///
/// Every error carries the coding path of the offending value.
///
/// ```swift
/// let todo = try JSONValueDecoder().decode(Todo.self, from: ["id": "t1", "done": true])
/// ```
public struct JSONValueDecoder: Sendable {
    /// How dates are read. Default: ``JSONDateCodingStrategy/iso8601``, the
    /// same as ``JSONValueEncoder``'s default so values round-trip.
    public var dateCodingStrategy: JSONDateCodingStrategy = .iso8601

    /// Values handed to `Decoder.userInfo`. Default: empty.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with the default settings.
    public init() {}

    /// Decodes a `T` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoderImpl(value: value, options: self).unboxDecodable(value, as: T.self, at: nil)
    }
}
