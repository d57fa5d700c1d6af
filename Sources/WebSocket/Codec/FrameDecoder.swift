public import NIOCore

/// Parses WebSocket frames (RFC 6455 §5.2) from bytes that may hold partial frames.
///
/// The decoder is a value with no hidden state: ``decode(from:messageBytesReceived:maxMessageSize:)``
/// either consumes one whole frame from the buffer's readable bytes, or
/// returns `nil` and consumes nothing when more bytes are needed, or throws.
/// Feeding the same bytes in any chunking therefore gives the same frames and
/// the same error. Each check runs as soon as the bytes it needs are present:
/// a frame whose header declares more than ``maxFrameSize`` fails with 1009
/// before any of its payload is buffered.
///
/// Checks, per frame: reserved bits not in ``allowedReservedBits`` (1002);
/// RSV1 on a control or continuation frame when RSV1 is allowed (RFC 7692
/// §6, 1002); reserved opcodes (1002); control frames fragmented or longer
/// than 125 bytes (1002); masking by role (a server requires masked frames, a
/// client rejects them, 1002); a 64-bit length with its top bit set (1002).
/// Non-minimal length encodings are accepted, as RFC 6455 allows.
/// Fragmentation rules across frames are the connection's job
/// (``WebSocketConnectionStateMachine``).
///
/// A masked payload is unmasked into a new buffer in one pass (see
/// ``WebSocketMaskingKey/unmasked(_:)``); an unmasked payload is a slice of
/// the input, without a copy.
///
/// ```swift
/// let decoder = FrameDecoder(role: .server, maxFrameSize: 1 << 20)
/// while let frame = try decoder.decode(from: &cumulation) {
///     handle(frame)
/// }
/// ```
public struct FrameDecoder: Sendable {
    /// The role of the endpoint that reads the frames.
    public var role: WebSocketRole
    /// The largest payload one frame may declare, in bytes.
    public var maxFrameSize: Int
    /// The reserved bits that negotiated extensions claim (RSV1 for permessage-deflate).
    public var allowedReservedBits: WebSocketReservedBits

    /// Creates a decoder for the endpoint playing `role`.
    ///
    /// - Parameters:
    ///   - maxFrameSize: the payload limit per frame; see
    ///     ``WebSocketConfiguration/maxFrameSize`` for the default's reasoning.
    ///   - allowedReservedBits: none unless an extension was negotiated.
    public init(
        role: WebSocketRole,
        maxFrameSize: Int = WebSocketConfiguration.defaultMaxFrameSize,
        allowedReservedBits: WebSocketReservedBits = []
    ) {
        self.role = role
        self.maxFrameSize = maxFrameSize
        self.allowedReservedBits = allowedReservedBits
    }

    /// Decodes the next frame from the readable bytes of `buffer`.
    ///
    /// - Parameters:
    ///   - buffer: bytes received so far; a whole frame is consumed on success.
    ///   - messageBytesReceived: payload bytes of the current message already
    ///     received in earlier frames (0 for a new message).
    ///   - maxMessageSize: a text, binary or continuation frame that would
    ///     take the message past this size fails with
    ///     ``WebSocketProtocolError/messageTooLarge(length:limit:)`` (1009)
    ///     before its payload is buffered. Control frames are not counted.
    /// - Returns: the frame with its payload unmasked, or `nil` when the
    ///   buffer does not yet hold a whole frame.
    /// - Throws: ``WebSocketProtocolError``; the buffer is then left as it was.
    public func decode(
        from buffer: inout ByteBuffer,
        messageBytesReceived: Int = 0,
        maxMessageSize: Int = .max
    ) throws(WebSocketProtocolError) -> WebSocketFrame? {
        guard
            let header = try header(in: buffer, messageBytesReceived: messageBytesReceived, maxMessageSize: maxMessageSize)
        else { return nil }
        let (fin, reserved, opcode, maskingKey) = (header.fin, header.reserved, header.opcode, header.maskingKey)
        let (headerLength, length) = (header.headerLength, header.payloadLength)
        guard buffer.readableBytes >= headerLength + length else { return nil }

        buffer.moveReaderIndex(forwardBy: headerLength)
        let payload: ByteBuffer
        if let maskingKey {
            // Unmask straight from the input into the new buffer, with no slice in between.
            payload = buffer.withUnsafeReadableBytes { maskingKey.unmasked(UnsafeRawBufferPointer(rebasing: $0.prefix(length))) }
            buffer.moveReaderIndex(forwardBy: length)
        } else {
            payload = buffer.readSlice(length: length)!
        }
        return WebSocketFrame(
            fin: fin,
            rsv1: reserved.contains(.rsv1),
            rsv2: reserved.contains(.rsv2),
            rsv3: reserved.contains(.rsv3),
            opcode: opcode,
            maskingKey: maskingKey,
            payload: payload
        )
    }

    /// The checked header of the frame at the start of `buffer`, or `nil`
    /// while the header itself is incomplete. It runs every header check of
    /// ``decode(from:messageBytesReceived:maxMessageSize:)``, so a caller can
    /// look at a frame whose payload is still arriving (to fail fast on
    /// invalid UTF-8).
    func header(
        in buffer: ByteBuffer,
        messageBytesReceived: Int,
        maxMessageSize: Int
    ) throws(WebSocketProtocolError) -> FrameHeader? {
        let start = buffer.readerIndex
        guard let first = buffer.getInteger(at: start, as: UInt8.self),
            let second = buffer.getInteger(at: start + 1, as: UInt8.self)
        else { return nil }

        let fin = first & 0x80 != 0
        let reserved = WebSocketReservedBits(rawValue: first)
        let opcode = WebSocketOpcode(rawValue: first & 0x0F)!
        let isMasked = second & 0x80 != 0
        let shortLength = Int(second & 0x7F)

        if !reserved.isSubset(of: allowedReservedBits) {
            throw .reservedBitsSet(reserved.subtracting(allowedReservedBits).rawValue)
        }
        guard opcode.isDefined else { throw .reservedOpcode(opcode.rawValue) }
        if opcode.isControl {
            guard fin else { throw .fragmentedControlFrame(opcode) }
            guard shortLength <= 125 else { throw .controlFrameTooLong(opcode, length: shortLength) }
        }
        if reserved.contains(.rsv1), opcode.isControl || opcode == .continuation {
            throw .compressedFrameNotFirst(opcode)
        }
        switch role {
        case .server where !isMasked: throw .unmaskedClientFrame
        case .client where isMasked: throw .maskedServerFrame
        default: break
        }

        var headerLength = 2
        let declaredLength: UInt64
        switch shortLength {
        case 126:
            guard let length = buffer.getInteger(at: start + 2, as: UInt16.self) else { return nil }
            declaredLength = UInt64(length)
            headerLength += 2
        case 127:
            guard let length = buffer.getInteger(at: start + 2, as: UInt64.self) else { return nil }
            guard length & (1 << 63) == 0 else { throw .lengthTopBitSet(length) }
            declaredLength = length
            headerLength += 8
        default:
            declaredLength = UInt64(shortLength)
        }
        guard declaredLength <= UInt64(maxFrameSize) else {
            throw .frameTooLarge(length: declaredLength, limit: maxFrameSize)
        }
        let length = Int(declaredLength)
        if !opcode.isControl, length > maxMessageSize - messageBytesReceived {
            throw .messageTooLarge(length: messageBytesReceived + length, limit: maxMessageSize)
        }

        var maskingKey: WebSocketMaskingKey?
        if isMasked {
            guard let key = buffer.getInteger(at: start + headerLength, as: UInt32.self) else { return nil }
            maskingKey = WebSocketMaskingKey(rawValue: key)
            headerLength += 4
        }
        return FrameHeader(
            fin: fin, reserved: reserved, opcode: opcode, maskingKey: maskingKey,
            headerLength: headerLength, payloadLength: length)
    }
}

/// A frame header that passed the decoder's checks.
struct FrameHeader {
    var fin: Bool
    var reserved: WebSocketReservedBits
    var opcode: WebSocketOpcode
    var maskingKey: WebSocketMaskingKey?
    /// Bytes before the payload, masking key included.
    var headerLength: Int
    /// The declared payload length.
    var payloadLength: Int
}
