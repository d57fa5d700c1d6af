/// Why some text is not JSON (RFC 8259) or exceeds the parser's limits, with
/// the byte offset where the problem was found, e.g. `trailing comma at byte 2`
/// for `[1,]`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
        case unexpectedEnd(expected: String)
        case unexpectedByte(UInt8, expected: String)
        case trailingComma
        case trailingData
        case invalidUTF8
        case controlCharacter(UInt8)
        case invalidEscape(UInt8)
        case invalidUnicodeEscape
        case unpairedSurrogate(UInt16)
        case unterminatedString
        case leadingZero
        case invalidNumber(expected: String)
        case numberOutOfRange(String)
        case duplicateKey(String)
        case tooDeep(limit: Int)
        case tooLarge(size: Int, limit: Int)
    }

    private let base: Base

    /// The offset, in bytes from the start of the input, where the problem
    /// was found.
    public let byteOffset: Int

    private init(_ base: Base, at byteOffset: Int) {
        self.base = base
        self.byteOffset = byteOffset
    }

    static func unexpectedEnd(at offset: Int, expected: String) -> Self { Self(.unexpectedEnd(expected: expected), at: offset) }
    static func unexpectedByte(_ byte: UInt8, at offset: Int, expected: String) -> Self {
        Self(.unexpectedByte(byte, expected: expected), at: offset)
    }
    static func trailingComma(at offset: Int) -> Self { Self(.trailingComma, at: offset) }
    static func trailingData(at offset: Int) -> Self { Self(.trailingData, at: offset) }
    static func invalidUTF8(at offset: Int) -> Self { Self(.invalidUTF8, at: offset) }
    static func controlCharacter(_ byte: UInt8, at offset: Int) -> Self { Self(.controlCharacter(byte), at: offset) }
    static func invalidEscape(_ byte: UInt8, at offset: Int) -> Self { Self(.invalidEscape(byte), at: offset) }
    static func invalidUnicodeEscape(at offset: Int) -> Self { Self(.invalidUnicodeEscape, at: offset) }
    static func unpairedSurrogate(_ unit: UInt16, at offset: Int) -> Self { Self(.unpairedSurrogate(unit), at: offset) }
    static func unterminatedString(at offset: Int) -> Self { Self(.unterminatedString, at: offset) }
    static func leadingZero(at offset: Int) -> Self { Self(.leadingZero, at: offset) }
    static func invalidNumber(at offset: Int, expected: String) -> Self { Self(.invalidNumber(expected: expected), at: offset) }
    static func numberOutOfRange(_ text: String, at offset: Int) -> Self { Self(.numberOutOfRange(text), at: offset) }
    static func duplicateKey(_ key: String, objectAt offset: Int) -> Self { Self(.duplicateKey(key), at: offset) }
    static func tooDeep(limit: Int, at offset: Int) -> Self { Self(.tooDeep(limit: limit), at: offset) }
    static func tooLarge(size: Int, limit: Int) -> Self { Self(.tooLarge(size: size, limit: limit), at: limit) }

    /// A message naming the problem and its byte offset.
    public var description: String {
        let at = "at byte \(byteOffset)"
        switch base {
        case .unexpectedEnd(let expected):
            return "unexpected end of input \(at): expected \(expected)"
        case let .unexpectedByte(byte, expected):
            return "unexpected \(Self.show(byte)) \(at): expected \(expected)"
        case .trailingComma:
            return "trailing comma \(at)"
        case .trailingData:
            return "unexpected data after the JSON value \(at)"
        case .invalidUTF8:
            return "invalid UTF-8 \(at)"
        case .controlCharacter(let byte):
            return "unescaped control character \(Self.hex(byte)) in a string \(at)"
        case .invalidEscape(let byte):
            return "invalid escape \"\\\(Self.printable(byte))\" \(at)"
        case .invalidUnicodeEscape:
            return "invalid \\u escape \(at): expected four hex digits"
        case .unpairedSurrogate(let unit):
            return "unpaired surrogate \\u\(String(unit, radix: 16)) \(at)"
        case .unterminatedString:
            return "unterminated string starting \(at)"
        case .leadingZero:
            return "number with a leading zero \(at)"
        case .invalidNumber(let expected):
            return "invalid number \(at): expected \(expected)"
        case .numberOutOfRange(let text):
            return "number \(text) \(at) is out of range for a double"
        case .duplicateKey(let key):
            return "duplicate key \"\(key)\" in the object starting \(at)"
        case .tooDeep(let limit):
            return "nesting deeper than \(limit) levels \(at)"
        case let .tooLarge(size, limit):
            return "input of \(size) bytes exceeds the limit of \(limit) bytes"
        }
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "character '\(printable(byte))'" : "byte \(hex(byte))"
    }

    private static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : hex(byte)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }
}
