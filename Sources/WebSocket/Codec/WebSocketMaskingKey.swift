public import NIOCore

/// The 32-bit key a client masks its frames with (RFC 6455 §5.3): byte `i` of a payload is XORed with byte
/// `i % 4` of the key, so masking and unmasking are the same operation.
///
/// ```swift
/// let key = WebSocketMaskingKey(0x37, 0xfa, 0x21, 0x3d)
/// var payload = ByteBuffer(bytes: [0x7f, 0x9f, 0x4d, 0x51, 0x58])
/// key.unmask(&payload)   // "Hello"
/// ```
public struct WebSocketMaskingKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as a big-endian integer: the first key byte is the most significant.
    public let rawValue: UInt32

    /// Creates a key from its big-endian integer value.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Creates a key from its four bytes, in wire order.
    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        self.rawValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// Creates a key from exactly four bytes in wire order; `nil` for any other count.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 4 else { return nil }
        var value: UInt32 = 0
        for byte in bytes { value = value << 8 | UInt32(byte) }
        self.rawValue = value
    }

    /// Key byte `index` (0–3) in wire order.
    public subscript(index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * (index & 3)))
    }

    /// A key drawn from `generator`. RFC 6455 §5.3 asks for keys an attacker cannot predict: the default system
    /// generator is cryptographic (``FrameEncoder`` uses ``WebSocketMaskingKeyGenerator``).
    public static func random(using generator: inout some RandomNumberGenerator) -> WebSocketMaskingKey {
        WebSocketMaskingKey(rawValue: generator.next())
    }

    /// A key from the system's cryptographic random source.
    public static func random() -> WebSocketMaskingKey {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// The key as eight hex digits, e.g. `37fa213d`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Masks or unmasks the readable bytes of `buffer` in place; `offset` is their position in the frame's
    /// payload, for data masked in pieces.
    public func unmask(_ buffer: inout ByteBuffer, offset: Int = 0) {
        buffer.withUnsafeMutableReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            xor(from: UnsafeRawPointer(base), to: base, count: bytes.count, offset: offset)
        }
    }

    /// Returns a masked (or unmasked) copy of the readable bytes of `buffer`, in one pass that never copies a
    /// shared buffer first.
    public func unmasked(_ buffer: ByteBuffer) -> ByteBuffer {
        buffer.withUnsafeReadableBytes { unmasked($0) }
    }

    /// Returns a masked (or unmasked) copy of `bytes` in a new buffer, in one pass.
    package func unmasked(_ bytes: UnsafeRawBufferPointer) -> ByteBuffer {
        var output = ByteBufferAllocator().buffer(capacity: bytes.count)
        append(bytes, to: &output, offset: 0)
        return output
    }

    /// Appends the masked (or unmasked) `source` bytes to `output`.
    package func append(_ source: UnsafeRawBufferPointer, to output: inout ByteBuffer, offset: Int) {
        let count = source.count
        guard count > 0 else { return }
        output.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
            xor(from: source.baseAddress!, to: target.baseAddress!, count: count, offset: offset)
            return count
        }
    }

    /// XORs `count` bytes from `source` into `target` (which may be the same memory), from key position
    /// `offset % 4`; assumes no alignment.
    package func xor(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int, offset: Int) {
        let phase = offset & 3
        // The key repeated twice, rotated to start at `phase`, in memory order.
        let rotated = phase == 0 ? rawValue : (rawValue << (8 * phase) | rawValue >> (32 - 8 * phase))
        let inMemoryOrder = UInt64(rotated.bigEndian)
        let pattern = inMemoryOrder | inMemoryOrder << 32
        var index = 0
        while index &+ 32 <= count {
            let w0 = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let w1 = source.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
            let w2 = source.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self)
            let w3 = source.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self)
            target.storeBytes(of: w0 ^ pattern, toByteOffset: index, as: UInt64.self)
            target.storeBytes(of: w1 ^ pattern, toByteOffset: index &+ 8, as: UInt64.self)
            target.storeBytes(of: w2 ^ pattern, toByteOffset: index &+ 16, as: UInt64.self)
            target.storeBytes(of: w3 ^ pattern, toByteOffset: index &+ 24, as: UInt64.self)
            index &+= 32
        }
        while index &+ 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            target.storeBytes(of: word ^ pattern, toByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < count {
            let byte = source.load(fromByteOffset: index, as: UInt8.self)
            target.storeBytes(of: byte ^ self[phase &+ index], toByteOffset: index, as: UInt8.self)
            index &+= 1
        }
    }
}
