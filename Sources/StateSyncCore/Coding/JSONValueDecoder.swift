import Foundation

/// Decodes `Decodable` values straight from a ``JSONValue`` tree.
///
/// Integer types accept any number they hold exactly (`3.0` decodes as `UInt8`
/// 3; `300`, `1.5` fail); `null` or a missing key fails for a non-optional.
/// `Date` follows ``dateCodingStrategy``, `Data` reads Base64. Every error
/// carries the coding path of the offending value.
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
