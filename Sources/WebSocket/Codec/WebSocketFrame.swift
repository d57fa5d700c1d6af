public import NIOCore

/// One WebSocket frame (RFC 6455 §5.2). Its payload is always unmasked: ``maskingKey`` records the peer's key
/// after ``FrameDecoder``, and is applied by ``FrameEncoder`` while writing.
///
/// ```swift
/// let hello = WebSocketFrame(opcode: .text, payload: ByteBuffer(string: "Hello"))
/// ```
public struct WebSocketFrame: Hashable, Sendable {
    /// Whether this is the final frame of a message.
    public var fin: Bool
    /// The RSV1 bit; set by permessage-deflate on the first frame of a compressed message.
    public var rsv1: Bool
    /// The RSV2 bit; no extension defined here uses it.
    public var rsv2: Bool
    /// The RSV3 bit; no extension defined here uses it.
    public var rsv3: Bool
    /// The frame's opcode.
    public var opcode: WebSocketOpcode
    /// The masking key the frame is (to be) masked with; `nil` for an unmasked frame.
    public var maskingKey: WebSocketMaskingKey?
    /// The application data, unmasked.
    public var payload: ByteBuffer

    /// Creates a frame; by default a final, unmasked frame with no reserved bits.
    public init(
        fin: Bool = true,
        rsv1: Bool = false,
        rsv2: Bool = false,
        rsv3: Bool = false,
        opcode: WebSocketOpcode,
        maskingKey: WebSocketMaskingKey? = nil,
        payload: ByteBuffer
    ) {
        self.fin = fin
        self.rsv1 = rsv1
        self.rsv2 = rsv2
        self.rsv3 = rsv3
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// The reserved bits as they appear in the first header byte (`0x40`, `0x20`, `0x10`).
    public var reservedBits: WebSocketReservedBits {
        var bits: WebSocketReservedBits = []
        if rsv1 { bits.insert(.rsv1) }
        if rsv2 { bits.insert(.rsv2) }
        if rsv3 { bits.insert(.rsv3) }
        return bits
    }
}
