extension JSONValue {
    /// The member `key` of an object; `nil` when absent or when `self` is not
    /// an object. Setting inserts or replaces in place, `nil` removes; setting
    /// on a non-object traps, like an out-of-range array index.
    public subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard var object = takeObject() else {
                preconditionFailure("cannot set member \"\(key)\" on a JSON \(kindName)")
            }
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index` of an array; `nil` when out of range or when
    /// `self` is not an array. Setting requires an array and an index in range
    /// (it traps otherwise, as `Array` does) and replaces the element in place.
    public subscript(index: Int) -> JSONValue? {
        get {
            guard case .array(let values) = self, values.indices.contains(index) else { return nil }
            return values[index]
        }
        set {
            guard self[index] != nil, let newValue, var values = takeArray() else {
                preconditionFailure("cannot set element \(index) on JSON \(kindName) (only existing elements of an array, to a non-nil value)")
            }
            values[index] = newValue
            self = .array(values)
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The Boolean, or `nil` for any other kind.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as an `Int64` when it is an integer, or a double with an
    /// exact 64-bit integer value; otherwise `nil`.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): value
        case .double(let value): Int64(exactly: value)
        default: nil
        }
    }

    /// The number as an `Int` when exactly representable; otherwise `nil`.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The number as a `Double` (integers convert to the nearest double);
    /// `nil` for any other kind.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The string, or `nil` for any other kind.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, or `nil` when this is not an array.
    public var arrayValue: JSONArray? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The object, or `nil` when this is not an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The JSON name of this value's kind (`"null"`, `"boolean"`, `"number"`,
    /// `"string"`, `"array"`, `"object"`), for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// ``kindName`` with its article (`"an object"`, `"a number"`, `"null"`).
    package var kindWithArticle: String {
        switch self {
        case .null: "null"
        case .object, .array: "an \(kindName)"
        default: "a \(kindName)"
        }
    }
}
