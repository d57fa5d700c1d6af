public import NIOCore

extension WebSocketConnectionStateMachine {
    /// Encodes a message into frames to write.
    ///
    /// With permessage-deflate negotiated, a message of at least
    /// ``PerMessageDeflateConfiguration/minimumMessageSize`` bytes is
    /// compressed (RSV1 on its first frame only), unless this side's window
    /// was negotiated down to 8 bits, which zlib cannot produce.
    ///
    /// - Parameters:
    ///   - message: the text or binary message.
    ///   - fragmentSize: split the (compressed) payload into frames of at
    ///     most this many bytes; `nil` sends one frame.
    /// - Returns: the bytes of all frames, to write in one go.
    /// - Throws: ``WebSocketSendError/closing(_:)`` after this endpoint sent
    ///   or received a close frame; ``WebSocketSendError/invalidFragmentSize(_:)``;
    ///   ``WebSocketSendError/compressionFailed(_:)``.
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

    /// The bytes to write for a message prepared once for many connections.
    ///
    /// A server uses the prepared frame as is: the compressed one when this
    /// connection negotiated `server_no_context_takeover` and a window at
    /// least as large as the one it was compressed with, else the plain one.
    /// When the server keeps its compression context (context takeover),
    /// the message is compressed again for this connection, because the
    /// peer's inflater window must follow this connection's own compressor.
    /// A client always encodes the message anew, since its frames need
    /// their own masking keys.
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

    /// Encodes a ping; the peer answers with a pong carrying the same payload.
    ///
    /// - Throws: ``WebSocketSendError/controlPayloadTooLong(_:)`` above 125
    ///   bytes, ``WebSocketSendError/closing(_:)`` once closing.
    public mutating func sendPing(_ payload: ByteBuffer = ByteBuffer()) throws(WebSocketSendError) -> ByteBuffer {
        guard state == .open else { throw .closing(state) }
        guard payload.readableBytes <= 125 else { throw .controlPayloadTooLong(payload.readableBytes) }
        return encoder.encode(WebSocketFrame(opcode: .ping, payload: payload))
    }

    /// Starts the close handshake: returns the close frame to write; then
    /// keep reading until the peer's close arrives (or ``nextDeadline``
    /// passes, see ``timerFired(now:)``). No data frame may be sent afterwards.
    ///
    /// - Parameters:
    ///   - status: the code and reason to send; the reason is cut to 123
    ///     bytes. ``WebSocketCloseCode/noStatusReceived`` sends an empty close payload.
    ///   - now: the current time, from which the close timeout runs.
    /// - Returns: the action, or ``WebSocketConnectionAction/doNothing`` when
    ///   a close frame was already sent or received.
    /// - Throws: ``WebSocketSendError/invalidCloseCode(_:)`` for a code that
    ///   may not be sent.
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
