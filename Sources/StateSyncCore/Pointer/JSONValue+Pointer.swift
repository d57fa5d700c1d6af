extension JSONValue {
    /// The value at `pointer`, or `nil` when nothing is there. Array tokens
    /// must be `0` or digits without a leading zero; `-` (past the end) never
    /// names a value.
    public subscript(pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            guard let next = current.child(token) else { return nil }
            current = next
        }
        return current
    }

    /// The direct child named by one reference token, or `nil`.
    package func child(_ token: String) -> JSONValue? {
        switch self {
        case .object(let object):
            return object[token]
        case .array(let values):
            guard case .position(let index)? = JSONPointer.arrayIndex(token), index < values.count else {
                return nil
            }
            return values[index]
        default:
            return nil
        }
    }

    /// RFC 6902 `add`: puts `value` at `pointer`, whose parent must exist: an
    /// object member is set, an array gets it inserted before the index
    /// (`0...count`) or appended for `-`; at the root it replaces the document.
    public mutating func add(_ value: JSONValue, at pointer: JSONPointer) throws(JSONPointerError) {
        guard let last = pointer.tokens.last else {
            self = value
            return
        }
        try modify(pointer.tokens.dropLast(), of: pointer) { (parent: inout JSONValue) throws(JSONPointerError) in
            if var object = parent.takeObject() {
                object[last] = value
                parent = .object(object)
            } else if var values = parent.takeArray() {
                defer { parent = .array(values) }
                let index = try JSONValue.arrayIndex(last, in: values, allowingEnd: true, of: pointer)
                values.insert(value, at: index)
            } else {
                throw .notAContainer(JSONPointer(tokens: pointer.tokens.dropLast()), kind: parent.kindWithArticle)
            }
        }
    }

    /// RFC 6902 `remove`: removes and returns the value at `pointer`, which
    /// must exist. The root cannot be removed.
    @discardableResult
    public mutating func remove(at pointer: JSONPointer) throws(JSONPointerError) -> JSONValue {
        guard let last = pointer.tokens.last else { throw .cannotRemoveRoot }
        return try modify(pointer.tokens.dropLast(), of: pointer) { (parent: inout JSONValue) throws(JSONPointerError) in
            if var object = parent.takeObject() {
                defer { parent = .object(object) }
                guard let removed = object.removeValue(forKey: last) else { throw .pathDoesNotExist(pointer) }
                return removed
            } else if var values = parent.takeArray() {
                defer { parent = .array(values) }
                let index = try JSONValue.arrayIndex(last, in: values, allowingEnd: false, of: pointer)
                return values.remove(at: index)
            } else {
                throw .notAContainer(JSONPointer(tokens: pointer.tokens.dropLast()), kind: parent.kindWithArticle)
            }
        }
    }

    /// RFC 6902 `replace`: sets the value at `pointer`, which must exist.
    public mutating func replace(at pointer: JSONPointer, with value: JSONValue) throws(JSONPointerError) {
        try modify(pointer.tokens[...], of: pointer) { (target: inout JSONValue) throws(JSONPointerError) in
            target = value
        }
    }

    /// Runs `body` in place on the value at `tokens` (a prefix of
    /// `pointer.tokens`, for error messages), taking each container on the way
    /// out (``takeObject()``, ``takeArray()``) so that none is copied.
    package mutating func modify<Result>(
        _ tokens: ArraySlice<String>,
        of pointer: JSONPointer,
        _ body: (inout JSONValue) throws(JSONPointerError) -> Result
    ) throws(JSONPointerError) -> Result {
        guard let token = tokens.first else { return try body(&self) }
        let rest = tokens.dropFirst()
        if var object = takeObject() {
            defer { self = .object(object) }
            let result = try object.withValue(forKey: token) { (child: inout JSONValue) throws(JSONPointerError) in
                try child.modify(rest, of: pointer, body)
            }
            guard let result else {
                throw .pathDoesNotExist(JSONPointer(tokens: Array(pointer.tokens[...tokens.startIndex])))
            }
            return result
        }
        guard var values = takeArray() else {
            throw .notAContainer(JSONPointer(tokens: Array(pointer.tokens[..<tokens.startIndex])), kind: kindWithArticle)
        }
        defer { self = .array(values) }
        let prefix = JSONPointer(tokens: Array(pointer.tokens[..<tokens.startIndex]))
        guard case .position(let index)? = JSONPointer.arrayIndex(token) else {
            throw token == "-" ? .noElementAtEnd(prefix) : .invalidArrayIndex(prefix, token: token)
        }
        guard index < values.count else {
            throw .indexOutOfRange(prefix, index: index, count: values.count)
        }
        return try values[index].modify(rest, of: pointer, body)
    }

    /// The position `token` names in `values`: an existing element, or for
    /// `add` (`allowingEnd`) also `count` and `-`.
    private static func arrayIndex(
        _ token: String,
        in values: JSONArray,
        allowingEnd: Bool,
        of pointer: JSONPointer
    ) throws(JSONPointerError) -> Int {
        let parent = JSONPointer(tokens: Array(pointer.tokens.dropLast()))
        switch JSONPointer.arrayIndex(token) {
        case .end?:
            guard allowingEnd else { throw .noElementAtEnd(parent) }
            return values.count
        case .position(let index)?:
            let limit = allowingEnd ? values.count : values.count - 1
            guard index <= limit else { throw .indexOutOfRange(parent, index: index, count: values.count) }
            return index
        case nil:
            throw .invalidArrayIndex(parent, token: token)
        }
    }
}
