public import NIOCore

/// The status code and reason carried by a close frame (RFC 6455 §5.5.1).
///
/// ```swift
/// let status = WebSocketCloseStatus(code: .goingAway, reason: "shutting down")
/// let payload = status.payload()                       // 0x03 0xE9 "shutting down"
/// let parsed = try WebSocketCloseStatus(parsing: payload) // same code and reason
/// ```
public struct WebSocketCloseStatus: Hashable, Sendable, CustomStringConvertible {
    /// The status code; ``WebSocketCloseCode/noStatusReceived`` when the close frame had none.
    public var code: WebSocketCloseCode
    /// The UTF-8 reason text (at most 123 bytes on the wire); often empty.
    public var reason: String

    /// Creates a status.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Parses and validates a received close frame's payload; an empty one gives
    /// ``WebSocketCloseCode/noStatusReceived``.
    ///
    /// - Throws: ``WebSocketProtocolError/closePayloadTooShort`` for 1 byte,
    ///   ``WebSocketProtocolError/invalidCloseCode(_:)`` for a code not ``WebSocketCloseCode/isValidOnWire``,
    ///   and a UTF-8 error for a bad reason.
    public init(parsing payload: ByteBuffer) throws(WebSocketProtocolError) {
        var payload = payload
        guard payload.readableBytes > 0 else {
            self.init(code: .noStatusReceived)
            return
        }
        guard let raw = payload.readInteger(as: UInt16.self) else { throw .closePayloadTooShort }
        let code = WebSocketCloseCode(code: raw)
        guard code.isValidOnWire else { throw .invalidCloseCode(raw) }
        var validator = UTF8Validator()
        try validator.validate(payload)
        try validator.finish()
        self.init(code: code, reason: String(buffer: payload))
    }

    /// The close frame payload for this status: the code, then the reason
    /// cut to 123 bytes at a character boundary. A status of
    /// ``WebSocketCloseCode/noStatusReceived`` gives an empty payload.
    public func payload() -> ByteBuffer {
        guard code != .noStatusReceived else { return ByteBuffer() }
        var buffer = ByteBuffer()
        buffer.writeInteger(code.code)
        buffer.writeSubstring(Self.truncated(reason, toUTF8Bytes: 123))
        return buffer
    }

    /// `1000 normalClosure: reason`.
    public var description: String {
        reason.isEmpty ? code.description : "\(code): \(reason)"
    }

    private static func truncated(_ text: String, toUTF8Bytes limit: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for character in text.unicodeScalars {
            let size = UTF8.width(character)
            guard used + size <= limit else { break }
            used += size
            end = text.unicodeScalars.index(after: end)
        }
        return text[..<end]
    }
}
