/// A violation of RFC 6455 / RFC 7692 by the peer, found while reading; ``closeCode`` is the one place that
/// decides which close code fails the connection for it.
///
/// ```swift
/// do { _ = try decoder.decode(from: &buffer) }
/// catch { sendClose(error.closeCode, reason: error.description) }
/// ```
public struct WebSocketProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Base: Hashable, Sendable {
        case reservedBitsSet(UInt8)
        case reservedOpcode(UInt8)
        case fragmentedControlFrame(WebSocketOpcode)
        case controlFrameTooLong(WebSocketOpcode, length: Int)
        case unmaskedClientFrame
        case maskedServerFrame
        case lengthTopBitSet(UInt64)
        case frameTooLarge(length: UInt64, limit: Int)
        case messageTooLarge(length: Int, limit: Int)
        case compressedFrameNotFirst(WebSocketOpcode)
        case unexpectedContinuation
        case expectedContinuation(WebSocketOpcode)
        case invalidUTF8(offset: Int)
        case truncatedUTF8(length: Int)
        case closePayloadTooShort
        case invalidCloseCode(UInt16)
        case invalidCompressedData(String)
        case tooManyPings(limit: Int)
    }

    private let base: Base

    private init(_ base: Base) {
        self.base = base
    }

    /// A reserved header bit (given as it appears in the first byte) is set
    /// but no negotiated extension claims it.
    public static func reservedBitsSet(_ bits: UInt8) -> Self { Self(.reservedBitsSet(bits)) }
    /// The opcode (given) is one RFC 6455 reserves.
    public static func reservedOpcode(_ raw: UInt8) -> Self { Self(.reservedOpcode(raw)) }
    /// A control frame had FIN clear.
    public static func fragmentedControlFrame(_ opcode: WebSocketOpcode) -> Self { Self(.fragmentedControlFrame(opcode)) }
    /// A control frame declared more than 125 payload bytes.
    public static func controlFrameTooLong(_ opcode: WebSocketOpcode, length: Int) -> Self {
        Self(.controlFrameTooLong(opcode, length: length))
    }
    /// A server received an unmasked frame from a client.
    public static let unmaskedClientFrame = Self(.unmaskedClientFrame)
    /// A client received a masked frame from a server.
    public static let maskedServerFrame = Self(.maskedServerFrame)
    /// A 64-bit payload length had its most significant bit set.
    public static func lengthTopBitSet(_ length: UInt64) -> Self { Self(.lengthTopBitSet(length)) }
    /// A frame header declared a payload above the configured maximum frame size.
    public static func frameTooLarge(length: UInt64, limit: Int) -> Self { Self(.frameTooLarge(length: length, limit: limit)) }
    /// A message grew (on the wire or when inflated) past the configured maximum message size.
    public static func messageTooLarge(length: Int, limit: Int) -> Self { Self(.messageTooLarge(length: length, limit: limit)) }
    /// RSV1 (compressed) was set on a control or continuation frame (RFC 7692 §6).
    public static func compressedFrameNotFirst(_ opcode: WebSocketOpcode) -> Self { Self(.compressedFrameNotFirst(opcode)) }
    /// A continuation frame arrived with no fragmented message in progress.
    public static let unexpectedContinuation = Self(.unexpectedContinuation)
    /// A new text or binary frame (given) arrived while a fragmented message was in progress.
    public static func expectedContinuation(_ opcode: WebSocketOpcode) -> Self { Self(.expectedContinuation(opcode)) }
    /// Text was not UTF-8; `offset` is the index of the first invalid byte within the message (or close reason).
    public static func invalidUTF8(offset: Int) -> Self { Self(.invalidUTF8(offset: offset)) }
    /// Text of `length` bytes ended in the middle of a UTF-8 sequence.
    public static func truncatedUTF8(length: Int) -> Self { Self(.truncatedUTF8(length: length)) }
    /// A close frame carried one payload byte (a status code needs two).
    public static let closePayloadTooShort = Self(.closePayloadTooShort)
    /// A close frame carried a code (given) that may not be sent on the wire.
    public static func invalidCloseCode(_ code: UInt16) -> Self { Self(.invalidCloseCode(code)) }
    /// A compressed message did not inflate; the text is zlib's reason.
    public static func invalidCompressedData(_ reason: String) -> Self { Self(.invalidCompressedData(reason)) }

    /// More pings arrived in one second than the configured limit (given).
    public static func tooManyPings(limit: Int) -> Self { Self(.tooManyPings(limit: limit)) }

    /// The close code that fails the connection: 1009 for sizes over a limit, 1007 for invalid UTF-8 or compressed
    /// data, 1008 for too many pings, 1002 for every other violation.
    public var closeCode: WebSocketCloseCode {
        switch base {
        case .tooManyPings:
            .policyViolation
        case .frameTooLarge, .messageTooLarge:
            .messageTooBig
        case .invalidUTF8, .truncatedUTF8, .invalidCompressedData:
            .invalidPayloadData
        case .reservedBitsSet, .reservedOpcode, .fragmentedControlFrame, .controlFrameTooLong,
            .unmaskedClientFrame, .maskedServerFrame, .lengthTopBitSet, .compressedFrameNotFirst,
            .unexpectedContinuation, .expectedContinuation, .closePayloadTooShort, .invalidCloseCode:
            .protocolError
        }
    }

    /// What was wrong, naming the offending value.
    public var description: String {
        switch base {
        case .reservedBitsSet(let bits):
            "reserved bits 0x\(String(bits, radix: 16)) set without an extension claiming them"
        case .reservedOpcode(let raw):
            "reserved opcode 0x\(String(raw, radix: 16, uppercase: true))"
        case .fragmentedControlFrame(let opcode):
            "\(opcode) frame is fragmented (FIN clear)"
        case .controlFrameTooLong(let opcode, let length):
            "\(opcode) frame declares \(length) payload bytes, above 125"
        case .unmaskedClientFrame:
            "client frame is not masked"
        case .maskedServerFrame:
            "server frame is masked"
        case .lengthTopBitSet(let length):
            "64-bit payload length 0x\(String(length, radix: 16)) has its top bit set"
        case .frameTooLarge(let length, let limit):
            "frame declares \(length) payload bytes, above the limit of \(limit)"
        case .messageTooLarge(let length, let limit):
            "message reaches \(length) bytes, above the limit of \(limit)"
        case .compressedFrameNotFirst(let opcode):
            "RSV1 (compressed) set on a \(opcode) frame"
        case .unexpectedContinuation:
            "continuation frame without a message in progress"
        case .expectedContinuation(let opcode):
            "\(opcode) frame while a fragmented message is in progress"
        case .invalidUTF8(let offset):
            "invalid UTF-8 at byte \(offset)"
        case .truncatedUTF8(let length):
            "UTF-8 sequence cut off at the end of \(length) bytes"
        case .closePayloadTooShort:
            "close frame payload of 1 byte"
        case .invalidCloseCode(let code):
            "close code \(code) may not be sent"
        case .invalidCompressedData(let reason):
            "compressed message does not inflate: \(reason)"
        case .tooManyPings(let limit):
            "more than \(limit) pings in one second"
        }
    }
}
