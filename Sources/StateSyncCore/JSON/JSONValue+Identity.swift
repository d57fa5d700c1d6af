extension JSONValue {
    /// Whether `self` and `other` are known to be equal in O(1): the same
    /// scalar, or arrays, objects or strings sharing their storage. `false`
    /// says nothing (they may still be equal); the diff calls this before
    /// `==` so that unchanged subtrees cost nothing.
    package func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): JSONValue.sameStorage(a, b)
        case let (.array(a), .array(b)): JSONValue.sameBuffer(a, b)
        case let (.object(a), .object(b)): a.isIdentical(to: b)
        default: false
        }
    }

    /// Whether two arrays share one buffer (so are equal). Two empty arrays
    /// count as sharing: they are equal whatever their buffers.
    package static func sameBuffer<Element>(_ lhs: [Element], _ rhs: [Element]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        return lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
    }

    /// Whether two strings share their UTF-8 storage (native strings only).
    private static func sameStorage(_ lhs: String, _ rhs: String) -> Bool {
        let utf8Count = lhs.utf8.count
        guard utf8Count == rhs.utf8.count else { return false }
        let same = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                left.baseAddress == right.baseAddress
            }
        }
        return (same ?? nil) ?? false
    }
}
