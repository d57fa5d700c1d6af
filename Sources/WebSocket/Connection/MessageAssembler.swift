import NIOCore

/// Reassembles data messages from frames (RFC 6455 §5.4): checks the
/// fragmentation order, validates text as it arrives, inflates compressed
/// messages, and enforces the message size limit on the inflated bytes.
struct MessageAssembler {
    private struct Partial {
        var kind: WebSocketMessage.Kind
        var isCompressed: Bool
        var data: ByteBuffer
        var utf8: UTF8Validator?
    }

    /// The fragmented message in progress, out of line: most connections
    /// never receive one, and every connection holds an assembler.
    private var partial: OutOfLine<Partial>?
    /// Whether the next continuation frame belongs to a compressed message.
    var isAssemblingCompressedMessage: Bool { partial?.value.isCompressed ?? false }
    /// Whether a fragmented message is in progress.
    var isAssembling: Bool { partial != nil }
    /// The UTF-8 state of the uncompressed text message being assembled, if that is what it is.
    var uncompressedTextValidator: UTF8Validator? {
        guard let partial, !partial.value.isCompressed else { return nil }
        return partial.value.utf8
    }
    /// Payload bytes of the current message received so far, as sent on the wire.
    private(set) var wireBytesReceived = 0
    let maxMessageSize: Int

    init(maxMessageSize: Int) {
        self.maxMessageSize = maxMessageSize
    }

    /// Takes a text, binary or continuation frame; returns the message it completes, if any. `decompressor` is
    /// required for a frame of a compressed message.
    mutating func receive(
        _ frame: WebSocketFrame,
        decompressor: PerMessageDeflateDecompressor?
    ) throws(WebSocketProtocolError) -> WebSocketMessage? {
        if frame.opcode == .continuation {
            guard var current = partial?.value else { throw .unexpectedContinuation }
            partial = nil   // `current` is now the only reference to the data
            try append(frame, to: &current, decompressor: decompressor)
            return try finishOrKeep(current, fin: frame.fin)
        }
        guard partial == nil else { throw .expectedContinuation(frame.opcode) }
        let kind: WebSocketMessage.Kind = frame.opcode == .text ? .text : .binary
        if frame.fin, !frame.rsv1 {
            // The common case: a whole uncompressed message in one frame, delivered without a copy.
            if kind == .text {
                var validator = UTF8Validator()
                try validator.validate(frame.payload)
                try validator.finish()
            }
            return WebSocketMessage(kind: kind, data: frame.payload)
        }
        var current = Partial(
            kind: kind,
            isCompressed: frame.rsv1,
            data: ByteBufferAllocator().buffer(capacity: frame.rsv1 ? 0 : frame.payload.readableBytes),
            utf8: kind == .text ? UTF8Validator() : nil
        )
        wireBytesReceived = 0
        try append(frame, to: &current, decompressor: decompressor)
        return try finishOrKeep(current, fin: frame.fin)
    }

    private mutating func append(
        _ frame: WebSocketFrame,
        to current: inout Partial,
        decompressor: PerMessageDeflateDecompressor?
    ) throws(WebSocketProtocolError) {
        wireBytesReceived += frame.payload.readableBytes
        let start = current.data.writerIndex
        if current.isCompressed, let decompressor {
            try decompressor.inflate(frame.payload, into: &current.data, isFinal: frame.fin, limit: maxMessageSize)
        } else {
            current.data.writeImmutableBuffer(frame.payload)
        }
        if current.utf8 != nil, let added = current.data.getSlice(at: start, length: current.data.writerIndex - start) {
            try current.utf8!.validate(added)
        }
    }

    private mutating func finishOrKeep(_ current: Partial, fin: Bool) throws(WebSocketProtocolError) -> WebSocketMessage? {
        guard fin else {
            partial = OutOfLine(current)
            return nil
        }
        try current.utf8?.finish()
        wireBytesReceived = 0
        return WebSocketMessage(kind: current.kind, data: current.data)
    }
}
