/// A JSON Pointer (RFC 6901): a path to one value inside a JSON document.
///
/// The text form is empty (the whole document) or `/`-prefixed reference
/// tokens, `~1` standing for `/` and `~0` for `~`; tokens are kept unescaped.
/// The URI-fragment form (`#/a`) is not accepted.
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/todos/0/title")
/// pointer.tokens                     // ["todos", "0", "title"]
/// JSONPointer.root.appending("a/b")  // "/a~1b"
/// document[pointer]                  // the value there, or nil
/// ```
public struct JSONPointer: Sendable, Hashable {
    /// The unescaped reference tokens, outermost first; empty for the root.
    public private(set) var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// A pointer made of already unescaped `tokens`.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the RFC 6901 text form.
    /// - Throws: ``JSONPointerError`` when `text` is not empty and does not
    ///   start with `/`, or has a `~` not followed by `0` or `1`.
    public init(parsing text: String) throws(JSONPointerError) {
        var bytes = Array(text.utf8)
        tokens = try bytes.withUnsafeMutableBufferPointer { buffer throws(JSONPointerError) in
            try JSONPointer.parseTokens(buffer, text: text)
        }
    }

    /// Whether this is the root pointer `""`.
    public var isRoot: Bool { tokens.isEmpty }

    /// The pointer to the containing value, or `nil` for the root.
    public var parent: JSONPointer? {
        isRoot ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// The last reference token, or `nil` for the root.
    public var lastToken: String? { tokens.last }

    /// This pointer with `token` (unescaped) added at the end.
    public func appending(_ token: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(token)
        return copy
    }

    /// This pointer with an array index added at the end.
    public func appending(index: Int) -> JSONPointer {
        appending(String(index))
    }

    /// This pointer followed by all tokens of `other`.
    public func appending(_ other: JSONPointer) -> JSONPointer {
        JSONPointer(tokens: tokens + other.tokens)
    }

    /// Whether this pointer equals `other` or points to one of its ancestors
    /// (the root is a prefix of every pointer).
    public func isPrefix(of other: JSONPointer) -> Bool {
        tokens.count <= other.tokens.count && zip(tokens, other.tokens).allSatisfy { UTF8Bytes.equal($0, $1) }
    }

    /// `other` made relative to this pointer, or `nil` when this pointer is
    /// not a prefix of it: `/a` relative to `/a/b/c` is `/b/c`.
    public func relativePath(to other: JSONPointer) -> JSONPointer? {
        guard isPrefix(of: other) else { return nil }
        return JSONPointer(tokens: Array(other.tokens.dropFirst(tokens.count)))
    }

    private static func parseTokens(
        _ bytes: UnsafeMutableBufferPointer<UInt8>,
        text: String
    ) throws(JSONPointerError) -> [String] {
        guard !bytes.isEmpty else { return [] }
        guard bytes[0] == UInt8(ascii: "/") else { throw .missingLeadingSlash(text) }
        var tokens: [String] = []
        var index = 1
        var token: [UInt8] = []
        while true {
            if index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                tokens.append(String(decoding: token, as: UTF8.self))
                token.removeAll(keepingCapacity: true)
                if index == bytes.count { return tokens }
            } else if bytes[index] == UInt8(ascii: "~") {
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                switch next {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default: throw .invalidEscape(text, byteOffset: index)
                }
                index += 1
            } else {
                token.append(bytes[index])
            }
            index += 1
        }
    }
}

extension JSONPointer: CustomStringConvertible {
    /// The RFC 6901 text form, with `~` written `~0` and `/` written `~1`.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                text.append(token.replacing("~", with: "~0").replacing("/", with: "~1"))
            } else {
                text.append(token)
            }
        }
        return text
    }
}

extension JSONPointer: Codable {
    /// Decodes the text form from a string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try JSONPointer(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(error, at: decoder)
        }
    }

    /// Encodes the text form as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
