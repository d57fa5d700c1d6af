/// The byte-level writers for JSON scalars shared by both serializer styles.
enum JSONTextWriter {
    /// Appends a literal's UTF-8 bytes.
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Writes a scalar (`null`, Boolean, number or string); containers are
    /// the serializer's job.
    static func writeScalar(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &out)
        case .bool(true): append("true", to: &out)
        case .bool(false): append("false", to: &out)
        case .integer(let integer): writeInteger(integer, into: &out)
        case .double(let double): writeDouble(double, into: &out)
        case .string(let string): writeString(string, into: &out)
        case .array, .object: preconditionFailure("containers are written by JSONSerializer")
        }
    }

    /// Writes the decimal digits of `value`.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0 && value < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold UInt64.max, so every Int64 magnitude fits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Writes `value` in Swift's shortest round-trip form, or `null` when it
    /// is not finite.
    static func writeDouble(_ value: Double, into out: inout [UInt8]) {
        guard value.isFinite else {
            append("null", to: &out)
            return
        }
        out.append(contentsOf: value.description.utf8)
    }

    /// Writes `string` quoted and escaped.
    static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            writeEscaped(bytes, into: &out)
        }
        if written == nil {
            Array(string.utf8).withUnsafeBufferPointer { writeEscaped($0, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Copies runs of bytes that need no escape in one go, escaping the rest.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var runStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            index = StringByteScan.skipUnescaped(bytes, from: index)
            guard index < count else { break }
            let byte = bytes[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if runStart < index {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            writeEscape(for: byte, into: &out)
            index += 1
            runStart = index
        }
        if runStart < count {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }
    }

    private static func writeEscape(for byte: UInt8, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            append("u00", to: &out)
            out.append(hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
