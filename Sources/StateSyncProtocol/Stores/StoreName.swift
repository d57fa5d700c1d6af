/// The name of one store on a server (docs/PROTOCOL.md, "Stores"): 1 to 64 of
/// `a`–`z`, `0`–`9`, `.`, `_` and `-`, starting with a letter or a digit, so it
/// is safe as a file name, a URL path segment and a database key.
///
/// ```swift
/// let team = try StoreName("team-42")
/// StoreName.main.rawValue   // "main": the store of messages that name none
/// ```
public struct StoreName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The store of every message without a `store` field.
    public static let main = StoreName(unchecked: "main")
    /// The longest name, in characters.
    public static let maxLength = 64
    /// The rule a name must follow, as error messages state it.
    public static let rule = "a store name is 1 to 64 of a-z 0-9 . _ - and starts with a-z or 0-9"

    /// The name as sent on the wire.
    public let rawValue: String

    /// Validates `rawValue`.
    ///
    /// - Throws: ``ProtocolError`` `invalid_store`, naming the rule.
    public init(_ rawValue: String) throws(ProtocolError) {
        guard Self.isValid(rawValue) else { throw ProtocolError.invalidStore(rawValue, id: nil) }
        self.rawValue = rawValue
    }

    private init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// Whether `name` follows ``rule``.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= maxLength, isLetterOrDigit(first) else { return false }
        return bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether this is ``main``, whose messages carry no `store` field.
    public var isMain: Bool { self == .main }

    /// The name.
    public var description: String { rawValue }

    /// Names in byte order (listings).
    public static func < (lhs: StoreName, rhs: StoreName) -> Bool { lhs.rawValue < rhs.rawValue }
}
