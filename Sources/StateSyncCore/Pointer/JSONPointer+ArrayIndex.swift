extension JSONPointer {
    /// What a reference token means as an array index (RFC 6901 §4).
    package enum ArrayIndex: Equatable {
        /// An existing position (or, for `add`, the insertion point).
        case position(Int)
        /// `-`: the (nonexistent) element after the last one.
        case end
    }

    /// Reads `token` as an array index: `0`, or digits without a leading
    /// zero, or `-`. Returns `nil` for anything else (`01`, `+1`, `1.0`, a
    /// number too large for `Int`).
    package static func arrayIndex(_ token: String) -> ArrayIndex? {
        let utf8 = token.utf8
        guard let first = utf8.first else { return nil }
        if first == UInt8(ascii: "-") {
            return utf8.count == 1 ? .end : nil
        }
        if first == UInt8(ascii: "0") {
            return utf8.count == 1 ? .position(0) : nil
        }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1 && !overflow2 else { return nil }
            value = sum
        }
        return .position(value)
    }
}
