public import NIOCore

/// Writes WebSocket frames (RFC 6455 §5.2) into a `ByteBuffer`. A server never masks (§5.1 forbids it); a client
/// masks every frame with its own key, or a fresh one from its ``WebSocketMaskingKeyGenerator``, while copying.
///
/// ```swift
/// var encoder = FrameEncoder(role: .client)
/// var out = ByteBuffer()
/// encoder.encode(WebSocketFrame(opcode: .text, payload: ByteBuffer(string: "Hello")), into: &out)
/// ```
public struct FrameEncoder: Sendable {
    /// The role of the endpoint that sends the frames.
    public let role: WebSocketRole
    private var keys: WebSocketMaskingKeyGenerator

    /// Creates an encoder; a client's keys are seeded from the system. A
    /// server never masks, so it asks the system for no seed (a system call
    /// per encoder: one per prepared message, which would be per delivery).
    public init(role: WebSocketRole) {
        self.init(role: role, keys: role == .client ? WebSocketMaskingKeyGenerator() : WebSocketMaskingKeyGenerator(seed: 0))
    }

    /// Creates an encoder whose client keys come from `keys` (a fixed seed makes tests reproducible).
    public init(role: WebSocketRole, keys: WebSocketMaskingKeyGenerator) {
        self.role = role
        self.keys = keys
    }

    /// Appends the frame's header and (masked, for a client) payload to `buffer`.
    public mutating func encode(_ frame: WebSocketFrame, into buffer: inout ByteBuffer) {
        let key: WebSocketMaskingKey? =
            switch role {
            case .server: nil
            case .client: frame.maskingKey ?? keys.nextKey()
            }
        let length = frame.payload.readableBytes
        buffer.reserveCapacity(minimumWritableBytes: Self.maxHeaderLength + length)
        Self.writeHeader(
            fin: frame.fin, reservedBits: frame.reservedBits, opcode: frame.opcode,
            length: length, maskingKey: key, into: &buffer
        )
        if let key {
            frame.payload.withUnsafeReadableBytes { key.append($0, to: &buffer, offset: 0) }
        } else {
            buffer.writeImmutableBuffer(frame.payload)
        }
    }

    /// Returns the frame's bytes in a new buffer.
    public mutating func encode(_ frame: WebSocketFrame) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: Self.maxHeaderLength + frame.payload.readableBytes)
        encode(frame, into: &buffer)
        return buffer
    }

    /// The longest header: 2 bytes, an 8-byte length and a 4-byte masking key.
    public static let maxHeaderLength = 14

    /// Writes a frame header with the shortest length encoding.
    package static func writeHeader(
        fin: Bool,
        reservedBits: WebSocketReservedBits,
        opcode: WebSocketOpcode,
        length: Int,
        maskingKey: WebSocketMaskingKey?,
        into buffer: inout ByteBuffer
    ) {
        buffer.writeInteger((fin ? 0x80 : 0) | reservedBits.rawValue | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch length {
        case ...125:
            buffer.writeInteger(maskBit | UInt8(length))
        case ...0xFFFF:
            buffer.writeInteger(maskBit | 126)
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(maskBit | 127)
            buffer.writeInteger(UInt64(length))
        }
        if let maskingKey {
            buffer.writeInteger(maskingKey.rawValue)
        }
    }
}
