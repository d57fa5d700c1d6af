public import NIOCore

/// A whole WebSocket data message: text (valid UTF-8) or binary, its bytes in a `ByteBuffer` (a single
/// unmasked frame is delivered without a copy).
///
/// ```swift
/// let message = WebSocketMessage.text("{\"type\":\"hello\"}")
/// message.text    // Optional("{\"type\":\"hello\"}")
/// ```
public struct WebSocketMessage: Hashable, Sendable {
    /// Whether a message is text or binary.
    public enum Kind: Hashable, Sendable {
        /// UTF-8 text (opcode 0x1).
        case text
        /// Binary data (opcode 0x2).
        case binary
    }

    /// Text or binary.
    public var kind: Kind
    /// The message's bytes; UTF-8 for text.
    public var data: ByteBuffer

    /// Creates a message; `data` must be valid UTF-8 when `kind` is text.
    public init(kind: Kind, data: ByteBuffer) {
        self.kind = kind
        self.data = data
    }

    /// A text message.
    public static func text(_ text: String) -> WebSocketMessage {
        WebSocketMessage(kind: .text, data: ByteBuffer(string: text))
    }

    /// A binary message.
    public static func binary(_ data: ByteBuffer) -> WebSocketMessage {
        WebSocketMessage(kind: .binary, data: data)
    }

    /// The text of a text message; `nil` for a binary one.
    public var text: String? {
        kind == .text ? String(buffer: data) : nil
    }

    /// The opcode of the message's first frame.
    public var opcode: WebSocketOpcode {
        kind == .text ? .text : .binary
    }
}
