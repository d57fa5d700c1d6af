extension JSONValue: Equatable {
    /// JSON equality: numbers by value (`.integer(1) == .double(1)`), strings
    /// by UTF-8 bytes (so canonically equivalent spellings differ), arrays and
    /// objects element by element, recognising shared storage in O(1).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.integer(a), .double(b)), let (.double(b), .integer(a)): Int64(exactly: b) == a
        case let (.string(a), .string(b)): UTF8Bytes.equal(a, b)
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }
}

extension JSONValue: Hashable {
    /// Hashes consistently with `==`: a double with an exact 64-bit integer
    /// value hashes as that integer.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let value):
            hasher.combine(1 as UInt8)
            hasher.combine(value)
        case .integer(let value):
            hasher.combine(2 as UInt8)
            hasher.combine(value)
        case .double(let value):
            if let exact = Int64(exactly: value) {
                hasher.combine(2 as UInt8)
                hasher.combine(exact)
            } else {
                hasher.combine(3 as UInt8)
                hasher.combine(value)
            }
        case .string(let value):
            hasher.combine(4 as UInt8)
            JSONValue.hashUTF8(value, into: &hasher)
        case .array(let values):
            hasher.combine(5 as UInt8)
            hasher.combine(values.count)
            for value in values { value.hash(into: &hasher) }
        case .object(let object):
            hasher.combine(6 as UInt8)
            object.hash(into: &hasher)
        }
    }

    /// Hashes the UTF-8 bytes of `string` (matching byte equality).
    package static func hashUTF8(_ string: String, into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if done == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }
}
