import NIOCore

/// Payload stamps: numbers as 16 lowercase hex digits (text frames stay
/// ASCII), padded with `x` to the message size.
enum Stamp {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeHex(_ value: UInt64, into buffer: inout ByteBuffer) {
        var value = value
        var digits = [UInt8](repeating: 0, count: 16)
        for index in stride(from: 15, through: 0, by: -1) {
            digits[index] = Self.hex[Int(value & 0xF)]
            value >>= 4
        }
        buffer.writeBytes(digits)
    }

    /// The 16 hex digits at `offset` from the reader index, or nil when they are not there.
    static func readHex(_ buffer: ByteBuffer, offset: Int) -> UInt64? {
        guard buffer.readableBytes >= offset + 16 else { return nil }
        return buffer.withUnsafeReadableBytes { raw -> UInt64? in
            var value: UInt64 = 0
            for index in offset..<(offset + 16) {
                let byte = raw[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
                default: return nil
                }
                value = (value << 4) | UInt64(digit)
            }
            return value
        }
    }

    static func pad(_ buffer: inout ByteBuffer, to size: Int) {
        let missing = size - buffer.readableBytes
        if missing > 0 { buffer.writeRepeatingByte(UInt8(ascii: "x"), count: missing) }
    }
}

/// Monotonic nanoseconds, the clock of every stamp (sender and receivers share it).
@inline(__always) func nowNanos() -> UInt64 { NIODeadline.now().uptimeNanoseconds }
