extension JSONByteReader {
    /// Parses the string starting at the `"` at `index`. Strings without
    /// escapes are made straight from the input bytes.
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let start = index
        lastStringWasNonASCII = false
        while index < bytes.count {
            index = StringByteScan.skipPlainASCII(bytes, from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start, quote: quote)
            }
            if byte < 0x20 { throw .controlCharacter(byte, at: index) }
            if byte >= 0x80 {
                lastStringWasNonASCII = true
                try skipUTF8Sequence()
            } else {
                index += 1
            }
        }
        throw .unterminatedString(at: quote)
    }

    /// The slow path: copies the string into `scratch`, decoding escapes.
    private mutating func parseEscapedString(from start: Int, quote: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw .controlCharacter(byte, at: index)
            case 0x80...:
                lastStringWasNonASCII = true
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw .unterminatedString(at: quote)
    }

    /// Decodes the escape at `index` (a `\`) into `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        let backslash = index
        index += 1
        guard index < bytes.count else { throw .unterminatedString(at: backslash) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            var scalar = UInt32(unit)
            if unit >= 0xD800 && unit <= 0xDBFF {
                // A high surrogate must be followed by an escaped low one.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw .unpairedSurrogate(unit, at: backslash)
                }
                index += 2
                let low = try readHex4()
                guard low >= 0xDC00 && low <= 0xDFFF else { throw .unpairedSurrogate(unit, at: backslash) }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw .unpairedSurrogate(unit, at: backslash)
            }
            if scalar >= 0x80 { lastStringWasNonASCII = true }
            appendUTF8(scalar)
        default:
            throw .invalidEscape(byte, at: backslash)
        }
    }

    /// Reads four hex digits at `index`.
    private mutating func readHex4() throws(JSONParseError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw .invalidUnicodeEscape(at: index) }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidUnicodeEscape(at: index + offset)
            }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }

    /// Appends the UTF-8 encoding of a (valid, non-surrogate) scalar.
    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (scalar >> 6)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (scalar >> 12)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (scalar >> 18)))
            scratch.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Checks the multi-byte UTF-8 sequence at `index` (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF) and moves past
    /// it; throws with the offset of the first bad byte.
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw .invalidUTF8(at: index)
        }
        for offset in 1..<length {
            let position = index + offset
            guard position < bytes.count else { throw .invalidUTF8(at: position) }
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[position]) else { throw .invalidUTF8(at: position) }
        }
        index += length
    }
}
