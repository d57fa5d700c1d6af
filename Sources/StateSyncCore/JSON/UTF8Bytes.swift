import Foundation

/// Byte-level helpers on the UTF-8 of Swift strings, used where JSON needs
/// byte semantics (key order, string equality) and speed.
package enum UTF8Bytes {
    /// Compares the UTF-8 bytes of two strings: negative, zero or positive as
    /// `lhs` sorts before, equal to or after `rhs`. Native strings are compared
    /// with `memcmp`; others byte by byte.
    package static func compare(_ lhs: String, _ rhs: String) -> Int {
        let fast = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                compare(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right))
            }
        }
        if let fast, let result = fast { return result }
        var left = lhs.utf8.makeIterator()
        var right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case let (l?, r?) where l != r: return l < r ? -1 : 1
            default: continue
            }
        }
    }

    /// Compares two byte buffers as `memcmp` does, shorter-prefix first.
    package static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0, let l = lhs.baseAddress, let r = rhs.baseAddress {
            let result = memcmp(l, r, common)
            if result != 0 { return Int(result) }
        }
        return lhs.count - rhs.count
    }

    /// Whether two strings have the same UTF-8 bytes (JSON string equality,
    /// stricter than Swift's canonical-equivalence `==`).
    package static func equal(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && compare(lhs, rhs) == 0
    }
}
