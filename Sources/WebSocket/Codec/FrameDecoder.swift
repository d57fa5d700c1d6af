public import NIOCore

/// Parses WebSocket frames (RFC 6455 §5.2) from bytes that may hold partial frames.
///
/// ``decode(from:messageBytesReceived:maxMessageSize:)`` consumes one whole frame, or returns `nil` and consumes
/// nothing, or throws, so any chunking of the same bytes gives the same frames and error. Each check runs as soon
/// as its bytes are present: a header declaring more than ``maxFrameSize`` fails (1009) before its payload is
/// buffered. Per frame it rejects (1002) reserved bits not allowed, RSV1 on a control or continuation frame
/// (RFC 7692 §6), reserved opcodes, fragmented or over-125-byte control frames, wrong masking for the role and a
/// 64-bit length with its top bit set; non-minimal lengths are accepted, as RFC 6455 allows. Fragmentation across
/// frames is ``WebSocketConnectionStateMachine``'s job. An unmasked payload is a slice of the input, not a copy.
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
    /// - Parameter allowedReservedBits: none unless an extension was negotiated.
    public init(
        role: WebSocketRole,
        maxFrameSize: Int = WebSocketConfiguration.defaultMaxFrameSize,
        allowedReservedBits: WebSocketReservedBits = []
    ) {
        self.role = role
        self.maxFrameSize = maxFrameSize
        self.allowedReservedBits = allowedReservedBits
    }

    /// Decodes the next frame from the readable bytes of `buffer`, consuming it whole on success.
    ///
    /// - Parameters:
    ///   - messageBytesReceived: payload bytes of the current message in earlier frames (0 for a new message).
    ///   - maxMessageSize: a data frame taking the message past this fails with
    ///     ``WebSocketProtocolError/messageTooLarge(length:limit:)`` (1009) before its payload is buffered;
    ///     control frames do not count.
    /// - Returns: the frame, unmasked, or `nil` when no whole frame is buffered yet.
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

    /// The checked header of the frame at the start of `buffer`, or `nil` while it is incomplete; runs every header
    /// check of ``decode(from:messageBytesReceived:maxMessageSize:)`` so a caller can fail fast on invalid UTF-8.
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
