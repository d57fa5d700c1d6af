/// One RFC 6902 operation: `{"op":"replace","path":"/0/done","value":true}`,
/// with `value` or `from` depending on the op; other members are ignored when
/// reading (RFC 6902 §4).
public enum JSONPatchOperation: Sendable, Hashable {
    /// Adds `value` at `path` (inserting into arrays, creating or replacing
    /// object members).
    case add(path: JSONPointer, value: JSONValue)
    /// Removes the value at `path`.
    case remove(path: JSONPointer)
    /// Replaces the existing value at `path`.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails the patch unless the value at `path` equals `value`.
    case test(path: JSONPointer, value: JSONValue)

    /// The operation's name: `"add"`, `"remove"`, `"replace"`, `"move"`,
    /// `"copy"` or `"test"`.
    public var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    /// The target location.
    public var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _):
            path
        case .move(_, let path), .copy(_, let path):
            path
        }
    }

    /// The operation in its RFC 6902 JSON shape.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["op": .string(name), "path": .string(path.description)]
        switch self {
        case .add(_, let value), .replace(_, let value), .test(_, let value):
            object["value"] = value
        case .move(let from, _), .copy(let from, _):
            object["from"] = .string(from.description)
        case .remove:
            break
        }
        return .object(object)
    }

    /// Reads an operation from its RFC 6902 JSON shape.
    /// - Throws: ``JSONPatchError`` naming the missing or wrong member.
    public init(jsonValue: JSONValue) throws(JSONPatchError) {
        guard case .object(let object) = jsonValue else {
            throw .malformed("an operation must be an object, not \(jsonValue.kindWithArticle)")
        }
        guard let op = object["op"] else { throw .malformed("missing \"op\"") }
        guard case .string(let name) = op else { throw .malformed("\"op\" must be a string, not \(op)") }
        let path = try Self.pointer(object, "path", op: name)
        func value() throws(JSONPatchError) -> JSONValue {
            guard let value = object["value"] else {
                throw .malformed("missing \"value\"", context: "\(name) \(path)")
            }
            return value
        }
        switch name {
        case "add": self = .add(path: path, value: try value())
        case "remove": self = .remove(path: path)
        case "replace": self = .replace(path: path, value: try value())
        case "move": self = .move(from: try Self.pointer(object, "from", op: name), path: path)
        case "copy": self = .copy(from: try Self.pointer(object, "from", op: name), path: path)
        case "test": self = .test(path: path, value: try value())
        default: throw .malformed("unknown op \"\(name)\"")
        }
    }

    private static func pointer(_ object: JSONObject, _ key: String, op: String) throws(JSONPatchError) -> JSONPointer {
        guard let member = object[key] else { throw .malformed("missing \"\(key)\"", context: op) }
        guard case .string(let text) = member else {
            throw .malformed("\"\(key)\" must be a string, not \(member)", context: op)
        }
        do {
            return try JSONPointer(parsing: text)
        } catch {
            throw .malformed(error.description, context: op)
        }
    }
}

extension JSONPatchOperation: CustomStringConvertible {
    /// The operation as compact JSON.
    public var description: String { jsonValue.description }
}

extension JSONPatchOperation: Codable {
    /// Decodes the RFC 6902 JSON shape (through ``JSONValue``).
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            self = try JSONPatchOperation(jsonValue: json)
        } catch {
            throw DecodingError.dataCorrupted(error, at: decoder)
        }
    }

    /// Encodes the RFC 6902 JSON shape.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
