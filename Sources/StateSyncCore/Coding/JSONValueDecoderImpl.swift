import Foundation

/// The `Decoder` behind ``JSONValueDecoder``, one per non-primitive value. Its
/// coding path is computed only when asked (from the enclosing decoder and the
/// key or index), so decoding builds no path array per value.
final class JSONValueDecoderImpl: Decoder {
    let value: JSONValue
    let options: JSONValueDecoder
    /// The enclosing value's decoder and where this value is in it; `nil` at the root.
    private let location: (parent: JSONValueDecoderImpl, step: CodingPathStep)?

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    var codingPath: [any CodingKey] {
        guard let location else { return [] }
        return location.parent.codingPath + [location.step.key]
    }

    /// The decoder of the root value.
    init(value: JSONValue, options: JSONValueDecoder) {
        self.value = value
        self.options = options
        location = nil
    }

    private init(value: JSONValue, options: JSONValueDecoder, location: (parent: JSONValueDecoderImpl, step: CodingPathStep)?) {
        self.value = value
        self.options = options
        self.location = location
    }

    /// The decoder of `value`, found at `step` in this decoder's value
    /// (`nil`: in this decoder's place, for a single-value container).
    func child(_ value: JSONValue, at step: CodingPathStep?) -> JSONValueDecoderImpl {
        JSONValueDecoderImpl(value: value, options: options, location: step.map { (self, $0) } ?? location)
    }

    /// The coding path of what is at `step` in this decoder's value (`nil`: this value).
    func path(_ step: CodingPathStep?) -> [any CodingKey] {
        guard let step else { return codingPath }
        return codingPath + [step.key]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch([String: JSONValue].self, "an object", value, path: codingPath)
        }
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else {
            throw mismatch([JSONValue].self, "an array", value, path: codingPath)
        }
        return JSONUnkeyedDecodingContainer(decoder: self, values: values)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONSingleValueDecodingContainer(decoder: self)
    }

    // MARK: Conversions shared by the containers

    func unbox(_ value: JSONValue, as type: Bool.Type, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type, "a boolean", value, path: path()) }
        return bool
    }

    func unbox(_ value: JSONValue, as type: String.Type, path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, "a string", value, path: path()) }
        return string
    }

    func unboxInteger<T: FixedWidthInteger>(_ value: JSONValue, as type: T.Type, path: @autoclosure () -> [any CodingKey]) throws -> T {
        let converted: T?
        switch value {
        case .integer(let integer): converted = T(exactly: integer)
        case .double(let double): converted = T(exactly: double)
        default: throw mismatch(type, "an integer", value, path: path())
        }
        guard let converted else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path(),
                debugDescription: "number \(value) does not fit in \(T.self)"
            ))
        }
        return converted
    }

    func unboxFloat<T: BinaryFloatingPoint>(_ value: JSONValue, as type: T.Type, path: @autoclosure () -> [any CodingKey]) throws -> T {
        guard let double = value.doubleValue else { throw mismatch(type, "a number", value, path: path()) }
        let converted = T(double)
        guard converted.isFinite else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path(),
                debugDescription: "number \(value) does not fit in \(T.self)"
            ))
        }
        return converted
    }

    /// `value`, found at `step` in this decoder's value (`nil`: this value), as a `T`.
    func unboxDecodable<T: Decodable>(_ value: JSONValue, as type: T.Type, at step: CodingPathStep?) throws -> T {
        // Common leaves first, without a nested decoder.
        if T.self == String.self { return try unbox(value, as: String.self, path: path(step)) as! T }
        if T.self == Int.self { return try unboxInteger(value, as: Int.self, path: path(step)) as! T }
        if T.self == Bool.self { return try unbox(value, as: Bool.self, path: path(step)) as! T }
        if T.self == JSONValue.self { return value as! T }
        if T.self == Date.self, let date = try decodeDate(value, path: path(step)) { return date as! T }
        if T.self == Data.self {
            guard case .string(let text) = value else { throw mismatch(type, "a Base64 string", value, path: path(step)) }
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(step), debugDescription: "\(value) is not valid Base64"))
            }
            return data as! T
        }
        if T.self == URL.self {
            guard case .string(let text) = value else { throw mismatch(type, "a URL string", value, path: path(step)) }
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(step), debugDescription: "\(value) is not a valid URL"))
            }
            return url as! T
        }
        return try T(from: child(value, at: step))
    }

    private func decodeDate(_ value: JSONValue, path: [any CodingKey]) throws -> Date? {
        do {
            return try options.dateCodingStrategy.decode(value)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: error.message))
        }
    }

    /// The error for a value of the wrong kind: `valueNotFound` for `null`,
    /// `typeMismatch` otherwise, naming what was expected and found.
    func mismatch(_ type: Any.Type, _ expected: String, _ value: JSONValue, path: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(expected) but found null"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(expected) but found \(value.kindName) \(Self.clip(value))"))
    }

    /// The value's JSON text, cut to 80 characters for messages.
    private static func clip(_ value: JSONValue) -> String {
        let text = value.description
        return text.count <= 80 ? text : text.prefix(80) + "…"
    }
}
