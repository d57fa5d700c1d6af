extension JSONValue {
    /// Whether `self` and `other` are known equal in O(1): the same scalar, or
    /// shared storage. `false` says nothing; the diff calls this before `==` so
    /// that unchanged subtrees cost nothing.
    package func isIdentical(to other: JSONValue) -> Bool {
        if JSONValue.sameRepresentation(self, other) { return true }
        return switch (self, other) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): JSONValue.sameStorage(a, b)
        case let (.array(a), .array(b)): a.isIdentical(to: b)
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

    /// How many elements in a row, from `oldStart` and `newStart` stepping
    /// forwards (or backwards), have the same representation, up to `limit`: a
    /// raw-memory loop without reference counting, for long unchanged runs.
    package static func identicalRun(
        _ old: [JSONValue], from oldStart: Int,
        _ new: [JSONValue], from newStart: Int,
        forwards: Bool, limit: Int
    ) -> Int {
        old.withUnsafeBufferPointer { oldBuffer in
            new.withUnsafeBufferPointer { newBuffer in
                guard let oldBase = oldBuffer.baseAddress, let newBase = newBuffer.baseAddress else { return 0 }
                let step = forwards ? 1 : -1
                var run = 0
                while run < limit,
                      sameBytes(UnsafeRawPointer(oldBase + (oldStart + run * step)),
                                UnsafeRawPointer(newBase + (newStart + run * step))) {
                    run += 1
                }
                return run
            }
        }
    }

    /// Whether both values have the same in-memory representation (the same
    /// case and scalar or storage references). It may miss equal values (unused
    /// payload bytes can differ), never wrongly match.
    @inline(__always)
    private static func sameRepresentation(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        withUnsafeBytes(of: lhs) { left in
            withUnsafeBytes(of: rhs) { right in sameBytes(left.baseAddress!, right.baseAddress!) }
        }
    }

    /// Compares the `MemoryLayout<JSONValue>.size` bytes at two addresses,
    /// eight at a time.
    @inline(__always)
    private static func sameBytes(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer) -> Bool {
        let size = MemoryLayout<JSONValue>.size
        var offset = 0
        while offset + 8 <= size {
            guard left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < size {
            guard left.load(fromByteOffset: offset, as: UInt8.self) == right.load(fromByteOffset: offset, as: UInt8.self) else {
                return false
            }
            offset += 1
        }
        return true
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
