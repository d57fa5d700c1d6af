/// Creates epoch ids: `"e-"` and 128 random bits in hexadecimal.
package enum Epoch {
    /// A new epoch id from the system's secure random source.
    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "e-" + hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
