import StateSyncCore

/// Appenders that write message frames straight into a byte buffer.
extension [UInt8] {
    /// Appends the UTF-8 bytes of a literal (field names and punctuation).
    mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends `string` as a quoted, escaped JSON string.
    mutating func appendJSONString(_ string: String) {
        JSONSerializer().serialize(.string(string), into: &self)
    }

    /// Appends `value` as compact JSON (Core's serializer, deterministic).
    mutating func appendJSON(_ value: JSONValue) {
        JSONSerializer().serialize(value, into: &self)
    }

    /// Appends the decimal digits of `number`.
    mutating func appendDecimal(_ number: UInt64) {
        if number < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number))
            return
        }
        let start = count
        var rest = number
        while rest > 0 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        }
        self[start...].reverse()
    }

    /// Appends `prefix` (`,"rev":`) and the digits of `number`.
    mutating func appendField(_ prefix: StaticString, _ number: UInt64) {
        appendLiteral(prefix)
        appendDecimal(number)
    }

    /// Appends `prefix` (`,"id":`) and `string` as a JSON string.
    mutating func appendField(_ prefix: StaticString, _ string: String) {
        appendLiteral(prefix)
        appendJSONString(string)
    }

    /// Appends `prefix` (`,"value":`) and `value` as compact JSON.
    mutating func appendField(_ prefix: StaticString, _ value: JSONValue) {
        appendLiteral(prefix)
        appendJSON(value)
    }
}
