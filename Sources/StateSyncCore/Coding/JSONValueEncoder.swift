import Foundation

/// Encodes `Encodable` values straight into a ``JSONValue`` tree.
///
/// Fails with `EncodingError.invalidValue` for what JSON cannot hold (a
/// `UInt64` above `Int64.max`, NaN, infinities). `Date` follows
/// ``dateCodingStrategy``, `Data` is Base64; a key encoded twice keeps its last
/// value.
///
/// ```swift
/// struct Todo: Codable { var id: String; var done: Bool }
/// let value = try JSONValueEncoder().encode(Todo(id: "t1", done: false))
/// // {"done":false,"id":"t1"}
/// ```
public struct JSONValueEncoder: Sendable {
    /// How dates are written. Default: ``JSONDateCodingStrategy/iso8601``,
    /// the form the protocol's example app uses (`"2026-11-21T10:00:00Z"`).
    public var dateCodingStrategy: JSONDateCodingStrategy = .iso8601

    /// Values handed to `Encoder.userInfo`. Default: empty.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder with the default settings.
    public init() {}

    /// Encodes `value` as a ``JSONValue``.
    /// - Throws: `EncodingError.invalidValue`, with the coding path, for a
    ///   value JSON cannot hold, or when the top-level value encodes nothing.
    public func encode(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONValueEncoderImpl(options: self, codingPath: [])
        let node = try encoder.wrap(value, at: nil)
        guard let node else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: [], debugDescription: "top-level \(type(of: value)) encoded no value")
            )
        }
        return node.resolved()
    }
}
