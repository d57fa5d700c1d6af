/// The 4-bit opcode of a WebSocket frame (RFC 6455 §5.2). Reserved opcodes (0x3–0x7, 0xB–0xF) are a protocol
/// error (1002), representable only so the decoder can report them.
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The opcode's 4-bit value.
    public let rawValue: UInt8

    /// Wraps a raw opcode; returns `nil` for values that do not fit in 4 bits.
    public init?(rawValue: UInt8) {
        guard rawValue <= 0xF else { return nil }
        self.rawValue = rawValue
    }

    private init(uncheckedRawValue: UInt8) {
        self.rawValue = uncheckedRawValue
    }

    /// A continuation of a fragmented message.
    public static let continuation = WebSocketOpcode(uncheckedRawValue: 0x0)
    /// The first frame of a text message (UTF-8).
    public static let text = WebSocketOpcode(uncheckedRawValue: 0x1)
    /// The first frame of a binary message.
    public static let binary = WebSocketOpcode(uncheckedRawValue: 0x2)
    /// A close frame.
    public static let close = WebSocketOpcode(uncheckedRawValue: 0x8)
    /// A ping frame.
    public static let ping = WebSocketOpcode(uncheckedRawValue: 0x9)
    /// A pong frame.
    public static let pong = WebSocketOpcode(uncheckedRawValue: 0xA)

    /// Whether this is a control opcode (close, ping, pong or reserved 0xB–0xF).
    public var isControl: Bool { rawValue & 0x8 != 0 }

    /// Whether RFC 6455 defines this opcode (the others are reserved).
    public var isDefined: Bool {
        switch rawValue {
        case 0x0, 0x1, 0x2, 0x8, 0x9, 0xA: true
        default: false
        }
    }

    /// A readable name such as `text` or `reserved(0x3)`.
    public var description: String {
        switch rawValue {
        case 0x0: "continuation"
        case 0x1: "text"
        case 0x2: "binary"
        case 0x8: "close"
        case 0x9: "ping"
        case 0xA: "pong"
        default: "reserved(0x\(String(rawValue, radix: 16, uppercase: true)))"
        }
    }
}
