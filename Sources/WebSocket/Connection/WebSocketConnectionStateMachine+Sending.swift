public import NIOCore

extension WebSocketConnectionStateMachine {
    /// Encodes a message into frames, returned as one buffer to write. With permessage-deflate, a message of at
    /// least ``PerMessageDeflateConfiguration/minimumMessageSize`` bytes is compressed (RSV1 on its first frame
    /// only) unless this side's window was negotiated down to 8 bits, which zlib cannot produce.
    ///
    /// - Parameter fragmentSize: the largest (compressed) payload per frame; `nil` sends one frame.
    /// - Throws: ``WebSocketSendError/closing(_:)`` once a close frame was sent or received,
    ///   ``WebSocketSendError/invalidFragmentSize(_:)``, ``WebSocketSendError/compressionFailed(_:)``.
    public mutating func send(_ message: WebSocketMessage, fragmentSize: Int? = nil) throws(WebSocketSendError)
        -> ByteBuffer
    {
        guard state == .open else { throw .closing(state) }
        if let fragmentSize, fragmentSize < 1 { throw .invalidFragmentSize(fragmentSize) }
        var payload = message.data
        var compressed = false
        if let compressor = try outboundCompressor(for: payload.readableBytes) {
            payload = try compressor.compress(payload)
            compressed = true
            if compressor.noContextTakeover {
                // Nothing carries over to the next message: free zlib's state while idle.
                self.compressor = nil
            }
        }
        let frameSize = fragmentSize ?? max(payload.readableBytes, 1)
        var output = ByteBufferAllocator().buffer(
            capacity: payload.readableBytes + FrameEncoder.maxHeaderLength * (payload.readableBytes / frameSize + 1)
        )
        var opcode = message.opcode
        var first = true
        repeat {
            let chunk = payload.readSlice(length: min(frameSize, payload.readableBytes))!
            let frame = WebSocketFrame(fin: payload.readableBytes == 0, rsv1: compressed && first, opcode: opcode, payload: chunk)
            encoder.encode(frame, into: &output)
            opcode = .continuation
            first = false
        } while payload.readableBytes > 0
        return output
    }

    /// The bytes to write for a message prepared once for many connections. A server reuses the compressed frame
    /// only with `server_no_context_takeover` and a window at least as large; with context takeover it compresses
    /// again, since the peer's window follows this connection's compressor. A client always encodes anew (masking).
    ///
    /// - Throws: as ``send(_:fragmentSize:)``.
    public mutating func send(_ prepared: WebSocketPreparedMessage) throws(WebSocketSendError) -> ByteBuffer {
        guard state == .open else { throw .closing(state) }
        guard role == .server, let deflate else {
            return role == .server ? prepared.uncompressedFrame : try send(prepared.message)
        }
        if let compressedFrame = prepared.compressedFrame, deflate.serverNoContextTakeover,
            prepared.compressedWindowBits <= deflate.serverMaxWindowBits
        {
            return compressedFrame
        }
        if !deflate.serverNoContextTakeover {
            return try send(prepared.message)
        }
        return prepared.uncompressedFrame
    }

    /// Encodes a ping; the peer answers with a pong carrying the same payload. Throws
    /// ``WebSocketSendError/controlPayloadTooLong(_:)`` above 125 bytes, ``WebSocketSendError/closing(_:)`` once
    /// closing.
    public mutating func sendPing(_ payload: ByteBuffer = ByteBuffer()) throws(WebSocketSendError) -> ByteBuffer {
        guard state == .open else { throw .closing(state) }
        guard payload.readableBytes <= 125 else { throw .controlPayloadTooLong(payload.readableBytes) }
        return encoder.encode(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Starts the close handshake and returns the close frame to write; keep reading until the peer's close
    /// arrives or ``nextDeadline`` passes. No data frame may be sent afterwards.
    ///
    /// - Parameter status: the reason is cut to 123 bytes; ``WebSocketCloseCode/noStatusReceived`` sends an
    ///   empty payload.
    /// - Returns: ``WebSocketConnectionAction/doNothing`` when a close frame was already sent or received.
    /// - Throws: ``WebSocketSendError/invalidCloseCode(_:)`` for a code that may not be sent.
    public mutating func close(_ status: WebSocketCloseStatus, now: NIODeadline = .now()) throws(WebSocketSendError)
        -> WebSocketConnectionAction
    {
        guard status.code == .noStatusReceived || status.code.isValidOnWire else { throw .invalidCloseCode(status.code) }
        guard state == .open else { return .doNothing }
        return startClosing(status, now: now)
    }

    /// Sends our close frame and starts the close timeout; `status` has a valid code.
    mutating func startClosing(_ status: WebSocketCloseStatus, now: NIODeadline) -> WebSocketConnectionAction {
        state = .closing
        sentCloseStatus = status
        closeDeadline = now + configuration.closeTimeout
        let frame = encoder.encode(WebSocketFrame(opcode: .close, payload: status.payload()))
        return .close(WebSocketCloseAction(frame: frame, closeConnection: false))
    }

    /// The compressor for an outgoing message of `size` bytes, or `nil` to send it plain.
    private mutating func outboundCompressor(for size: Int) throws(WebSocketSendError) -> PerMessageDeflateCompressor? {
        guard let deflate else { return nil }
        let settings = configuration.compression ?? PerMessageDeflateConfiguration()
        let windowBits = deflate.maxWindowBits(sentBy: role)
        guard size >= settings.minimumMessageSize, windowBits >= 9 else { return nil }
        if let compressor { return compressor }
        let created = try PerMessageDeflateCompressor(
            windowBits: windowBits,
            noContextTakeover: deflate.noContextTakeover(sentBy: role),
            compressionLevel: settings.compressionLevel,
            memoryLevel: settings.memoryLevel
        )
        compressor = created
        return created
    }
}
