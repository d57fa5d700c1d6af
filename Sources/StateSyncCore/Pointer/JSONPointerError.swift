/// Why a JSON Pointer could not be parsed, or followed in a document, e.g.
/// `invalid JSON pointer "a": it must be empty or start with "/"`.
public struct JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
        case missingLeadingSlash(String)
        case invalidEscape(String, byteOffset: Int)
        case pathDoesNotExist(String)
        case notAContainer(String, kind: String)
        case invalidArrayIndex(String, token: String)
        case indexOutOfRange(String, index: Int, count: Int)
        case noElementAtEnd(String)
        case cannotRemoveRoot
        case moveIntoItself(from: String, path: String)
        case testFailed(String, actual: String, expected: String)
        case tooLong(String, bytes: Int, limit: Int)
        case tooDeep(String, tokens: Int, limit: Int)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    static func missingLeadingSlash(_ text: String) -> JSONPointerError {
        JSONPointerError(.missingLeadingSlash(text))
    }

    static func invalidEscape(_ text: String, byteOffset: Int) -> JSONPointerError {
        JSONPointerError(.invalidEscape(text, byteOffset: byteOffset))
    }

    static func pathDoesNotExist(_ pointer: JSONPointer) -> JSONPointerError {
        JSONPointerError(.pathDoesNotExist(pointer.description))
    }

    static func notAContainer(_ pointer: JSONPointer, kind: String) -> JSONPointerError {
        JSONPointerError(.notAContainer(pointer.description, kind: kind))
    }

    static func invalidArrayIndex(_ pointer: JSONPointer, token: String) -> JSONPointerError {
        JSONPointerError(.invalidArrayIndex(pointer.description, token: token))
    }

    static func indexOutOfRange(_ pointer: JSONPointer, index: Int, count: Int) -> JSONPointerError {
        JSONPointerError(.indexOutOfRange(pointer.description, index: index, count: count))
    }

    static func noElementAtEnd(_ pointer: JSONPointer) -> JSONPointerError {
        JSONPointerError(.noElementAtEnd(pointer.description))
    }

    static let cannotRemoveRoot = JSONPointerError(.cannotRemoveRoot)

    static func moveIntoItself(from: JSONPointer, path: JSONPointer) -> JSONPointerError {
        JSONPointerError(.moveIntoItself(from: from.description, path: path.description))
    }

    static func testFailed(_ pointer: JSONPointer, actual: JSONValue, expected: JSONValue) -> JSONPointerError {
        JSONPointerError(.testFailed(pointer.description, actual: actual.description, expected: expected.description))
    }

    static func tooLong(_ text: String, bytes: Int, limit: Int) -> JSONPointerError {
        JSONPointerError(.tooLong(clip(text), bytes: bytes, limit: limit))
    }

    static func tooDeep(_ text: String, tokens: Int, limit: Int) -> JSONPointerError {
        JSONPointerError(.tooDeep(clip(text), tokens: tokens, limit: limit))
    }

    /// Whether the pointer text itself was malformed (as opposed to a
    /// well-formed pointer that does not fit the document).
    public var isMalformedPointer: Bool {
        switch base {
        case .missingLeadingSlash, .invalidEscape, .tooLong, .tooDeep: true
        default: false
        }
    }

    /// `text`, cut to 100 characters so messages stay readable.
    private static func clip(_ text: String) -> String {
        text.count <= 100 ? text : text.prefix(100) + "…"
    }

    /// A message naming the offending pointer or token.
    public var description: String {
        switch base {
        case .missingLeadingSlash(let text):
            "invalid JSON pointer \"\(text)\": it must be empty or start with \"/\""
        case let .invalidEscape(text, offset):
            "invalid JSON pointer \"\(text)\": \"~\" at byte \(offset) must be followed by \"0\" or \"1\""
        case .pathDoesNotExist(let path):
            "path does not exist: \(path)"
        case let .notAContainer(path, kind):
            "path does not exist: \(path.isEmpty ? "the root" : path) is \(kind), not an object or array"
        case let .invalidArrayIndex(path, token):
            "\"\(token)\" is not a valid index into the array at \(path.isEmpty ? "the root" : path)"
        case let .indexOutOfRange(path, index, count):
            "index \(index) is out of range for the array at \(path.isEmpty ? "the root" : path) (count \(count))"
        case .noElementAtEnd(let path):
            "\"-\" names no existing element of the array at \(path.isEmpty ? "the root" : path)"
        case .cannotRemoveRoot:
            "cannot remove the whole document"
        case let .moveIntoItself(from, path):
            "cannot move \(from) into its own child \(path)"
        case let .tooLong(text, bytes, limit):
            "JSON pointer \"\(text)\" is \(bytes) bytes long; at most \(limit) are accepted"
        case let .tooDeep(text, tokens, limit):
            "JSON pointer \"\(text)\" has \(tokens) tokens; at most \(limit) are accepted"
        case let .testFailed(path, actual, expected):
            "test failed: the value at \(path.isEmpty ? "the root" : path) is \(Self.clip(actual)), not \(Self.clip(expected))"
        }
    }
}
