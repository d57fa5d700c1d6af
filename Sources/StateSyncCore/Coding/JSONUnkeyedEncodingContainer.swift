/// Writes the elements of one array for ``JSONValueEncoder``.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoderImpl
    let array: EncodedArray
    let codingPath: [any CodingKey]

    var count: Int { array.items.count }

    private var nextKey: JSONCodingKey { JSONCodingKey(index: array.items.count) }

    private func put(_ value: JSONValue) {
        array.items.append(.value(value))
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: Float) throws { put(try encoder.box(Double(value), at: nextKey)) }
    mutating func encode(_ value: Int) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { put(.integer(value)) }
    mutating func encode(_ value: UInt) throws { put(try encoder.box(value, at: nextKey)) }
    mutating func encode(_ value: UInt8) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { put(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { put(try encoder.box(value, at: nextKey)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let node = try encoder.wrap(value, at: nextKey) ?? .object(EncodedObject())
        array.items.append(node)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let key = nextKey
        array.items.append(.object(nested))
        return KeyedEncodingContainer(
            JSONKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, codingPath: codingPath + [key])
        )
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let key = nextKey
        array.items.append(.array(nested))
        return JSONUnkeyedEncodingContainer(encoder: encoder, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONValueEncoderImpl(options: encoder.options, codingPath: codingPath + [nextKey])
        array.items.append(.deferred(child))
        return child
    }
}

/// Writes one value for ``JSONValueEncoder``.
struct JSONSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: JSONValueEncoderImpl

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.store(.null) }
    mutating func encode(_ value: Bool) throws { encoder.store(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.store(.string(value)) }
    mutating func encode(_ value: Double) throws { encoder.store(try encoder.box(value, at: nil)) }
    mutating func encode(_ value: Float) throws { encoder.store(try encoder.box(Double(value), at: nil)) }
    mutating func encode(_ value: Int) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { encoder.store(.integer(value)) }
    mutating func encode(_ value: UInt) throws { encoder.store(try encoder.box(value, at: nil)) }
    mutating func encode(_ value: UInt8) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { encoder.store(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { encoder.store(try encoder.box(value, at: nil)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.store(try encoder.wrap(value, at: nil)?.resolved() ?? .object(JSONObject()))
    }
}
