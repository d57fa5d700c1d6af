/// An RFC 6902 JSON Patch: a list of operations applied in order, all or
/// nothing.
///
/// ```swift
/// var doc: JSONValue = ["todos": [["id": "t1", "done": false]]]
/// let patch = JSONPatch([.replace(path: try JSONPointer(parsing: "/todos/0/done"), value: true)])
/// try patch.apply(to: &doc)
/// ```
public struct JSONPatch: Sendable, Hashable {
    /// The operations, applied first to last.
    public var operations: [JSONPatchOperation]

    /// A patch of `operations`.
    public init(_ operations: [JSONPatchOperation] = []) {
        self.operations = operations
    }

    /// Whether the patch has no operations (applying it changes nothing).
    public var isEmpty: Bool { operations.isEmpty }

    /// Applies every operation to `document`, atomically: when one fails,
    /// `document` is left as it was and the error names the operation. Only the
    /// containers on the paths touched are copied.
    public func apply(to document: inout JSONValue) throws(JSONPatchError) {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try JSONPatch.apply(operation, to: &result)
            } catch {
                throw .failed(index: index, operation: operation, reason: error.description)
            }
        }
        document = result
    }

    /// `document` with the patch applied; see ``apply(to:)``.
    public func applied(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var result = document
        try apply(to: &result)
        return result
    }

    private static func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(JSONPointerError) {
        switch operation {
        case let .add(path, value):
            try document.add(value, at: path)
        case let .remove(path):
            try document.remove(at: path)
        case let .replace(path, value):
            try document.replace(at: path, with: value)
        case let .move(from, path):
            if from == path {
                // A no-op, but only when there is something to move.
                guard document[from] != nil else { throw .pathDoesNotExist(from) }
                return
            }
            if from.isPrefix(of: path) { throw .moveIntoItself(from: from, path: path) }
            let value = try document.remove(at: from)
            try document.add(value, at: path)
        case let .copy(from, path):
            guard let value = document[from] else { throw .pathDoesNotExist(from) }
            try document.add(value, at: path)
        case let .test(path, expected):
            guard let actual = document[path] else { throw .pathDoesNotExist(path) }
            guard actual == expected else { throw .testFailed(path, actual: actual, expected: expected) }
        }
    }

    /// The patch as its RFC 6902 JSON array.
    public var jsonValue: JSONValue {
        .array(operations.map(\.jsonValue))
    }

    /// Reads a patch from its RFC 6902 JSON array.
    ///
    /// - Throws: ``JSONPatchError`` naming the malformed operation's index.
    public init(jsonValue: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = jsonValue else {
            throw .malformed("a patch must be an array, not \(jsonValue.kindWithArticle)")
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                operations.append(try JSONPatchOperation(jsonValue: element))
            } catch {
                throw error.inOperation(index)
            }
        }
        self.operations = operations
    }
}

extension JSONPatch: CustomStringConvertible {
    /// The patch as compact JSON.
    public var description: String { jsonValue.description }
}

extension JSONPatch: Codable {
    /// Decodes the RFC 6902 JSON array.
    public init(from decoder: any Decoder) throws {
        operations = try [JSONPatchOperation](from: decoder)
    }

    /// Encodes the RFC 6902 JSON array.
    public func encode(to encoder: any Encoder) throws {
        try operations.encode(to: encoder)
    }
}
