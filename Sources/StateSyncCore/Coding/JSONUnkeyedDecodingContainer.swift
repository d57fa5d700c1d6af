/// Reads the elements of one array, in order, for ``JSONValueDecoder``.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoderImpl
    let values: JSONArray
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoderImpl, values: JSONArray) {
        self.decoder = decoder
        self.values = values
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private var path: [any CodingKey] { decoder.path(.index(currentIndex)) }

    /// The next element; advances only when `read` succeeds.
    private mutating func next<T>(
        _ type: T.Type,
        _ read: (JSONValueDecoderImpl, JSONValue, CodingPathStep) throws -> T
    ) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(
                codingPath: path,
                debugDescription: "the array has only \(values.count) elements"
            ))
        }
        let result = try read(decoder, values[currentIndex], .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.unbox($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.unbox($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.unboxFloat($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.unboxFloat($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.unboxInteger($1, as: type, path: $0.path($2)) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { try $0.unboxDecodable($1, as: type, at: $2) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next(KeyedDecodingContainer<NestedKey>.self) {
            try $0.child($1, at: $2).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) {
            try $0.child($1, at: $2).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { $0.child($1, at: $2) }
    }
}

/// Reads one value for ``JSONValueDecoder``.
struct JSONSingleValueDecodingContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoderImpl

    var codingPath: [any CodingKey] { decoder.codingPath }

    private var value: JSONValue { decoder.value }

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.unbox(value, as: type, path: codingPath) }
    func decode(_ type: String.Type) throws -> String { try decoder.unbox(value, as: type, path: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.unboxFloat(value, as: type, path: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.unboxFloat(value, as: type, path: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.unboxInteger(value, as: type, path: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.unboxInteger(value, as: type, path: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.unboxDecodable(value, as: type, at: nil)
    }
}
