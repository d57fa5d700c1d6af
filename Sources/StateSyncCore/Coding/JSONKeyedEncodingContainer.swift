/// Writes the members of one object for ``JSONValueEncoder``.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoderImpl
    let object: EncodedObject
    let codingPath: [any CodingKey]

    private func put(_ value: JSONValue, _ key: Key) {
        object.members.append((key.stringValue, .value(value)))
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(try encoder.box(value, at: key), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(try encoder.box(Double(value), at: key), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try encoder.box(value, at: key), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(try encoder.box(value, at: key), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let node = try encoder.wrap(value, at: key) ?? .object(EncodedObject())
        object.members.append((key.stringValue, node))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        object.members.append((key.stringValue, .object(nested)))
        return KeyedEncodingContainer(
            JSONKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, codingPath: codingPath + [key])
        )
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        object.members.append((key.stringValue, .array(nested)))
        return JSONUnkeyedEncodingContainer(encoder: encoder, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(at: JSONCodingKey.super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(at: key)
    }

    private func superEncoder(at key: any CodingKey) -> any Encoder {
        let child = JSONValueEncoderImpl(options: encoder.options, codingPath: codingPath + [key])
        object.members.append((key.stringValue, .deferred(child)))
        return child
    }
}
