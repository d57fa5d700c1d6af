/// Reads the members of one object for ``JSONValueDecoder``. A class: the
/// `KeyedDecodingContainer` box copies it on every `decode(_:forKey:)`, and a
/// reference costs one retain where the struct's fields cost four.
final class JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoderImpl
    let object: JSONObject

    init(decoder: JSONValueDecoderImpl, object: JSONObject) {
        self.decoder = decoder
        self.object = object
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { object.keyArray.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "no member \"\(key.stringValue)\" in the object"
            ))
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { decoder.path(.key(key)) }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.unbox(member(key), as: type, path: path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.unbox(member(key), as: type, path: path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.unboxFloat(member(key), as: type, path: path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.unboxFloat(member(key), as: type, path: path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.unboxInteger(member(key), as: type, path: path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unboxDecodable(member(key), as: type, at: .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(member(key), at: .key(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(member(key), at: .key(key)).unkeyedContainer()
    }

    /// The decoder for the member `"super"`; `null` when it is absent (as
    /// Foundation's `JSONDecoder` does).
    func superDecoder() throws -> any Decoder {
        decoder.child(object[JSONCodingKey.super.stringValue] ?? .null, at: .key(JSONCodingKey.super))
    }

    /// The decoder for the member `key`; `null` when it is absent.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, at: .key(key))
    }
}
