public import NIOCore

/// The logic of one WebSocket connection, with no channel: framing, reassembly, UTF-8 and size checks,
/// permessage-deflate, ping/pong, the close handshake, keepalive and idle decisions.
///
/// A handler calls ``read(from:now:)`` until it returns `nil` and performs each action (stopping after a
/// ``WebSocketConnectionAction/close(_:)`` that closes the connection), writes the bytes ``send(_:fragmentSize:)``
/// returns, re-arms one timer at ``nextDeadline`` after every call (calling ``timerFired(now:)`` when it fires),
/// and calls ``connectionClosed()`` on `channelInactive`.
/// It holds zlib streams, so it is not `Sendable`: keep it on the connection's event loop and do not copy it.
/// Without context takeover a stream exists only while a compressed message is in progress.
///
/// ```swift
/// var machine = WebSocketConnectionStateMachine(role: .server, configuration: .init(), deflate: nil)
/// var input = ByteBuffer(bytes: [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
/// while let action = machine.read(from: &input) {
///     // .deliver(WebSocketMessage.text("Hello"))
/// }
/// ```
public struct WebSocketConnectionStateMachine {
    /// The role of this endpoint.
    public let role: WebSocketRole
    /// The limits and timers in force.
    public var configuration: WebSocketConfiguration { shared.value }
    private let shared: SharedConfiguration
    /// The negotiated permessage-deflate parameters; `nil` when not negotiated.
    public var deflate: PerMessageDeflateParameters? { compression?.value.parameters }
    /// Where the connection is.
    public internal(set) var state: WebSocketConnectionState = .open
    /// The peer's close status, once its close frame arrived.
    public var receivedCloseStatus: WebSocketCloseStatus? { closing?.value.received }
    /// The status this endpoint sent (or failed the connection with), once sent.
    public internal(set) var sentCloseStatus: WebSocketCloseStatus? {
        get { closing?.value.sent }
        set { changeClosing { $0.sent = newValue } }
    }

    // Kept out of line (`nil` until needed) because every connection holds this machine and an idle one
    // never uses them.
    private var closing: OutOfLine<WebSocketCloseRecord>?
    private var compression: OutOfLine<ConnectionCompression>?
    private var partialTextProgress: OutOfLine<PartialText>?
    let decoder: FrameDecoder
    var encoder: FrameEncoder
    private var assembler: MessageAssembler
    var lastReceived: NIODeadline
    var lastPingSent: NIODeadline?
    var pingsSent: UInt64 = 0
    /// The pings received in the second of uptime ``pingSecond`` (8 bytes
    /// in all: every idle connection holds them).
    private var pingsThisSecond: UInt32 = 0
    private var pingSecond: UInt32 = 0

    /// UTF-8 checked so far of an uncompressed text frame still arriving.
    typealias PartialText = (validator: UTF8Validator, checked: Int)
    var partialText: PartialText? {
        get { partialTextProgress?.value }
        set { partialTextProgress = newValue.map(OutOfLine.init) }
    }

    /// When the close handshake gives up waiting for the peer.
    var closeDeadline: NIODeadline? {
        get { closing?.value.deadline }
        set { if newValue != nil || closing != nil { changeClosing { $0.deadline = newValue } } }
    }

    /// The stream compressing outbound messages, while one is held.
    var compressor: PerMessageDeflateCompressor? {
        get { compression?.value.compressor }
        set { compression?.value.compressor = newValue }
    }

    /// The stream inflating inbound messages, while one is held.
    private var decompressor: PerMessageDeflateDecompressor? {
        get { compression?.value.decompressor }
        set { compression?.value.decompressor = newValue }
    }

    private mutating func changeClosing(_ change: (inout WebSocketCloseRecord) -> Void) {
        if closing == nil { closing = OutOfLine(WebSocketCloseRecord()) }
        change(&closing!.value)
    }

    /// Whether a zlib stream is held right now (for memory tests).
    package var holdsCompressionState: Bool { compressor != nil || decompressor != nil }

    /// Creates the machine for a connection that has just been upgraded.
    ///
    /// - Parameters:
    ///   - deflate: the negotiated permessage-deflate parameters, or `nil`; RSV1 is accepted only when set.
    ///   - now: the time of the upgrade; idle and ping timers start from it.
    public init(
        role: WebSocketRole,
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        deflate: PerMessageDeflateParameters? = nil,
        now: NIODeadline = .now()
    ) {
        self.role = role
        self.shared = SharedConfigurations.process.of(configuration)
        self.compression = deflate.map { OutOfLine(ConnectionCompression(parameters: $0)) }
        self.decoder = FrameDecoder(
            role: role,
            maxFrameSize: configuration.maxFrameSize,
            allowedReservedBits: deflate == nil ? [] : .rsv1
        )
        self.encoder = FrameEncoder(role: role)
        self.assembler = MessageAssembler(maxMessageSize: configuration.maxMessageSize)
        self.lastReceived = now
    }

    /// Decodes and handles the next frame in `buffer`, consuming one whole frame per call.
    ///
    /// - Parameter now: unread bytes count as activity for the idle and ping timers, even before a whole frame.
    /// - Returns: the action to perform, or `nil` when no whole frame is buffered; once
    ///   ``WebSocketConnectionState/closed``, the bytes are discarded and `nil` returned.
    public mutating func read(from buffer: inout ByteBuffer, now: NIODeadline = .now()) -> WebSocketConnectionAction? {
        guard state != .closed else {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return nil
        }
        if buffer.readableBytes > 0 {
            lastReceived = now
        }
        do {
            guard
                let frame = try decoder.decode(
                    from: &buffer,
                    messageBytesReceived: assembler.wireBytesReceived,
                    maxMessageSize: configuration.maxMessageSize
                )
            else {
                try checkPartialText(in: buffer)
                return nil
            }
            partialText = nil
            return try handle(frame, now: now)
        } catch {
            return fail(error)
        }
    }

    /// Checks the UTF-8 of an uncompressed text frame still arriving (only the new bytes), so invalid text
    /// fails the connection (1007) before the frame is complete.
    private mutating func checkPartialText(in buffer: ByteBuffer) throws(WebSocketProtocolError) {
        guard
            let header = try decoder.header(
                in: buffer, messageBytesReceived: assembler.wireBytesReceived, maxMessageSize: configuration.maxMessageSize),
            !header.reserved.contains(.rsv1)
        else { return }
        var progress: (validator: UTF8Validator, checked: Int)
        if let partialText {
            progress = partialText
        } else if header.opcode == .text, !assembler.isAssembling {
            progress = (UTF8Validator(), 0)
        } else if header.opcode == .continuation, let validator = assembler.uncompressedTextValidator {
            progress = (validator, 0)
        } else {
            return
        }
        let available = min(buffer.readableBytes - header.headerLength, header.payloadLength)
        guard available > progress.checked,
            var bytes = buffer.getSlice(at: buffer.readerIndex + header.headerLength + progress.checked, length: available - progress.checked)
        else { return }
        header.maskingKey?.unmask(&bytes, offset: progress.checked)
        try progress.validator.validate(bytes)
        progress.checked = available
        partialText = progress
    }

    /// Reports the end of the TCP connection; returns the status for the application: the peer's, the one
    /// this endpoint failed with, or ``WebSocketCloseCode/abnormalClosure`` (1006) when no close frame came.
    public mutating func connectionClosed() -> WebSocketCloseStatus {
        state = .closed
        closeDeadline = nil
        return receivedCloseStatus ?? closing?.value.failure ?? WebSocketCloseStatus(code: .abnormalClosure)
    }

    private mutating func handle(_ frame: WebSocketFrame, now: NIODeadline) throws(WebSocketProtocolError)
        -> WebSocketConnectionAction
    {
        switch frame.opcode {
        case .ping:
            guard state == .open else { return .doNothing }
            try countPing(now: now)
            return .pong(encoder.encode(WebSocketFrame(opcode: .pong, payload: frame.payload)))
        case .pong:
            return .doNothing
        case .close:
            return try receivedClose(payload: frame.payload, now: now)
        default:
            let needsInflater = frame.rsv1 || (frame.opcode == .continuation && assembler.isAssemblingCompressedMessage)
            let message = try assembler.receive(frame, decompressor: needsInflater ? try inflater() : nil)
            if message != nil, decompressor?.noContextTakeover == true {
                // Nothing carries over to the next message: free zlib's state while idle.
                decompressor = nil
            }
            return message.map { .deliver($0) } ?? .doNothing
        }
    }

    /// Counts a received ping against ``WebSocketConfiguration/maxPingsPerSecond``,
    /// in windows of one second (whole seconds of uptime).
    private mutating func countPing(now: NIODeadline) throws(WebSocketProtocolError) {
        guard let limit = configuration.maxPingsPerSecond else { return }
        let second = UInt32(truncatingIfNeeded: now.uptimeNanoseconds / 1_000_000_000)
        if second != pingSecond {
            pingSecond = second
            pingsThisSecond = 0
        }
        guard pingsThisSecond < limit else { throw .tooManyPings(limit: limit) }
        pingsThisSecond &+= 1   // below the limit: wraps only past 4 billion pings in a second
    }

    private mutating func inflater() throws(WebSocketProtocolError) -> PerMessageDeflateDecompressor {
        if let decompressor { return decompressor }
        let parameters = deflate ?? PerMessageDeflateParameters()
        let peer: WebSocketRole = role == .server ? .client : .server
        let created = try PerMessageDeflateDecompressor(
            windowBits: parameters.maxWindowBits(sentBy: peer),
            noContextTakeover: parameters.noContextTakeover(sentBy: peer)
        )
        decompressor = created
        return created
    }

    private mutating func receivedClose(payload: ByteBuffer, now: NIODeadline) throws(WebSocketProtocolError)
        -> WebSocketConnectionAction
    {
        let status = try WebSocketCloseStatus(parsing: payload)
        changeClosing { $0.received = status }
        let wasOpen = state == .open
        state = .closed
        // A server closes TCP first (RFC 6455 §7.1.1); a client waits for it, up to the close timeout.
        let closeConnection = role == .server
        closeDeadline = closeConnection ? nil : now + configuration.closeTimeout
        guard wasOpen else {
            return .close(WebSocketCloseAction(frame: nil, closeConnection: closeConnection))
        }
        // Echo the peer's code (an empty payload answers an empty one).
        let reply = WebSocketCloseStatus(code: status.code)
        sentCloseStatus = reply
        let frame = encoder.encode(WebSocketFrame(opcode: .close, payload: reply.payload()))
        return .close(WebSocketCloseAction(frame: frame, closeConnection: closeConnection))
    }

    /// Fails the connection (RFC 6455 §7.1.7): send a close with the error's
    /// code unless ours already went out, then close TCP.
    private mutating func fail(_ error: WebSocketProtocolError) -> WebSocketConnectionAction {
        let alreadySent = state == .closing
        let status = WebSocketCloseStatus(code: error.closeCode, reason: error.description)
        state = .closed
        closeDeadline = nil
        changeClosing { $0.failure = status }
        guard !alreadySent else {
            return .close(WebSocketCloseAction(frame: nil, closeConnection: true, error: error))
        }
        sentCloseStatus = status
        let frame = encoder.encode(WebSocketFrame(opcode: .close, payload: status.payload()))
        return .close(WebSocketCloseAction(frame: frame, closeConnection: true, error: error))
    }
}

@available(*, unavailable)
extension WebSocketConnectionStateMachine: Sendable {}
