public import StateSyncProtocol

/// A store name, or a pattern with `*` wildcards (any run of characters,
/// none included), as a token's `stores` claim gives it. Patterns follow
/// ``rule``: store name characters and `*`, at most 64.
///
/// ```swift
/// let pattern = try StorePattern("team-42-*")
/// pattern.matches(try StoreName("team-42-board"))   // true
/// pattern.matches(try StoreName("team-43-board"))   // false
/// ```
public struct StorePattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let rawValue: String
    private let characters: [UInt8]

    /// The rule every pattern follows, quoted in errors.
    public static let rule = "a store pattern is 1 to 64 characters of a-z, 0-9, '.', '_', '-' and the wildcard '*'"

    /// `text` as a pattern.
    ///
    /// - Throws: ``StorePatternError`` when `text` does not follow ``rule``.
    public init(_ text: String) throws(StorePatternError) {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count), bytes.allSatisfy(Self.isAllowed) else {
            throw StorePatternError(pattern: text)
        }
        rawValue = text
        characters = bytes
    }

    /// `*`: every store.
    public static let anyStore = StorePattern(valid: "*")

    private init(valid text: String) {
        rawValue = text
        characters = Array(text.utf8)
    }

    /// Whether `store`'s name matches this pattern.
    public func matches(_ store: StoreName) -> Bool {
        Self.glob(characters[...], Array(store.rawValue.utf8)[...])
    }

    /// How many characters of the pattern are not wildcards: the more, the
    /// more specific (``StoreAccess`` lets the most specific pattern decide).
    var literalCount: Int { characters.count { $0 != UInt8(ascii: "*") } }

    /// Whether the pattern has no wildcard: it names one store.
    var isExact: Bool { !characters.contains(UInt8(ascii: "*")) }

    /// The pattern as written.
    public var description: String { rawValue }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "*"):
            true
        default:
            false
        }
    }

    /// Wildcard matching in time proportional to the lengths' product at
    /// worst (both are at most 64): on a mismatch, the last `*` takes one
    /// more character and the rest is tried again.
    private static func glob(_ pattern: ArraySlice<UInt8>, _ name: ArraySlice<UInt8>) -> Bool {
        var p = pattern.startIndex
        var n = name.startIndex
        var star: (pattern: Int, name: Int)?
        while n < name.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = (p, n)
                p += 1
            } else if p < pattern.endIndex, pattern[p] == name[n] {
                p += 1
                n += 1
            } else if let last = star {
                p = last.pattern + 1
                n = last.name + 1
                star = (last.pattern, last.name + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}

/// A store pattern against ``StorePattern/rule``.
public struct StorePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The refused text.
    public let pattern: String

    /// Names the pattern and the rule.
    public var description: String { "invalid store pattern \"\(pattern.prefix(80))\": \(StorePattern.rule)" }
}
