/// The recursive-descent parser behind ``JSONParser``: reads one JSON
/// document from a UTF-8 buffer, byte by byte, with no intermediate tokens.
struct JSONByteReader: ~Copyable {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    /// Reused for strings that contain escapes.
    var scratch: [UInt8] = []
    /// Whether the last string parsed had a non-ASCII character.
    var lastStringWasNonASCII = false
    /// Members of the containers being parsed, innermost last.
    private var values = JSONParseStack<JSONValue>()
    /// Keys of the objects being parsed, innermost last.
    private var keys = JSONParseStack<String>()

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw .trailingData(at: index) }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            default:
                return
            }
        }
    }

    /// Parses the value starting at `index` (whitespace already skipped);
    /// `depth` counts the containers around it.
    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw .unexpectedEnd(at: index, expected: "a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case let byte:
            throw .unexpectedByte(byte, at: index, expected: "a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<count {
            guard index < bytes.count else { throw .unexpectedEnd(at: index, expected: "\"\(literal)\"") }
            guard bytes[index] == start[offset] else {
                throw .unexpectedByte(bytes[index], at: index, expected: "\"\(literal)\"")
            }
            index += 1
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth, at: index) }
        index += 1  // [
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        let start = values.count
        while true {
            let value = try parseValue(depth: depth)
            values.push(value)
            if try endOfMember(closing: UInt8(ascii: "]"), expected: "',' or ']'") {
                return .array(values.popArray(from: start))
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth, at: index) }
        let start = index
        index += 1  // {
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        let firstKey = keys.count
        let firstValue = values.count
        var sorted = true
        var nonASCIIKeys = false
        while true {
            guard index < bytes.count else { throw .unexpectedEnd(at: index, expected: "a string key") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw .unexpectedByte(bytes[index], at: index, expected: "a string key")
            }
            let key = try parseString()
            nonASCIIKeys = nonASCIIKeys || lastStringWasNonASCII
            if sorted && keys.count > firstKey {
                let order = UTF8Bytes.compare(keys.element(at: keys.count - 1), key)
                if order == 0 { throw .duplicateKey(key, objectAt: start) }
                sorted = order < 0
            }
            skipWhitespace()
            guard index < bytes.count else { throw .unexpectedEnd(at: index, expected: "':'") }
            guard bytes[index] == UInt8(ascii: ":") else { throw .unexpectedByte(bytes[index], at: index, expected: "':'") }
            index += 1
            skipWhitespace()
            keys.push(key)
            let value = try parseValue(depth: depth)
            values.push(value)
            if try endOfMember(closing: UInt8(ascii: "}"), expected: "',' or '}'") { break }
        }
        let objectKeys = keys.popArray(from: firstKey)
        let objectValues = values.popArray(from: firstValue)
        if nonASCIIKeys {
            // Swift treats canonically equivalent keys ("é" and "e\u{301}")
            // as one key; JSONObject must never hold both.
            var seen = Set<String>(minimumCapacity: objectKeys.count)
            for key in objectKeys where !seen.insert(key).inserted {
                throw .duplicateKey(key, objectAt: start)
            }
        }
        if sorted {
            return .object(JSONObject(uncheckedSortedKeys: objectKeys, values: objectValues))
        }
        return .object(try Self.sortedObject(keys: objectKeys, values: objectValues, objectAt: start))
    }

    /// After a member: consumes the `,` before the next one (rejecting a
    /// trailing comma) or the container's `closing` byte, and returns
    /// whether the container ended.
    private mutating func endOfMember(closing: UInt8, expected: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw .unexpectedEnd(at: index, expected: expected) }
        let byte = bytes[index]
        index += 1
        if byte == closing { return true }
        guard byte == UInt8(ascii: ",") else { throw .unexpectedByte(byte, at: index - 1, expected: expected) }
        let comma = index - 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == closing { throw .trailingComma(at: comma) }
        return false
    }

    /// Sorts the members of an object whose keys arrived out of order,
    /// rejecting a repeated key.
    private static func sortedObject(
        keys: [String],
        values: [JSONValue],
        objectAt start: Int
    ) throws(JSONParseError) -> JSONObject {
        let order = keys.indices.sorted { JSONObject.precedes(keys[$0], keys[$1]) }
        var sortedKeys: [String] = []
        var sortedValues: [JSONValue] = []
        sortedKeys.reserveCapacity(keys.count)
        sortedValues.reserveCapacity(keys.count)
        for position in order {
            if let last = sortedKeys.last, UTF8Bytes.equal(last, keys[position]) {
                throw .duplicateKey(keys[position], objectAt: start)
            }
            sortedKeys.append(keys[position])
            sortedValues.append(values[position])
        }
        return JSONObject(uncheckedSortedKeys: sortedKeys, values: sortedValues)
    }
}
