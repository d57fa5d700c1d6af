public import NIOCore

/// A server message encoded once, to be written unchanged to many connections. It holds the plain frame and,
/// with a compressor and a large enough message, a compressed one;
/// ``WebSocketConnectionStateMachine/send(_:)-(WebSocketPreparedMessage)`` picks per connection (with server
/// context takeover each connection compresses anew, since its peer's window follows its own history).
///
/// ```swift
/// let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
/// let prepared = try WebSocketPreparedMessage(.text(patchJSON), compressor: compressor)
/// for connection in subscribers { connection.write(try connection.machine.send(prepared)) }
/// ```
public struct WebSocketPreparedMessage: Hashable, Sendable {
    /// The message itself.
    public let message: WebSocketMessage
    /// The message as one unmasked, uncompressed frame.
    public let uncompressedFrame: ByteBuffer
    /// The message as one unmasked frame with a compressed payload (RSV1
    /// set), or `nil` when no compressor was given or the message is below
    /// the size threshold.
    public let compressedFrame: ByteBuffer?
    /// The window bits ``compressedFrame`` was compressed with.
    public let compressedWindowBits: Int

    /// Encodes `message` for server-to-client delivery.
    ///
    /// - Parameters:
    ///   - compressor: one without context takeover, so the output depends on this message alone; `nil` for
    ///     no compressed form.
    ///   - minimumSizeToCompress: smaller messages get no compressed form (default 256).
    /// - Throws: ``WebSocketSendError/compressionFailed(_:)``, also when the compressor keeps context.
    public init(
        _ message: WebSocketMessage,
        compressor: PerMessageDeflateCompressor? = nil,
        minimumSizeToCompress: Int = 256
    ) throws(WebSocketSendError) {
        self.message = message
        var encoder = FrameEncoder(role: .server)
        self.uncompressedFrame = encoder.encode(WebSocketFrame(opcode: message.opcode, payload: message.data))
        guard let compressor, message.data.readableBytes >= minimumSizeToCompress else {
            self.compressedFrame = nil
            self.compressedWindowBits = 15
            return
        }
        guard compressor.noContextTakeover else {
            throw .compressionFailed("a prepared message needs a compressor without context takeover")
        }
        let payload = try compressor.compress(message.data)
        self.compressedFrame = encoder.encode(WebSocketFrame(rsv1: true, opcode: message.opcode, payload: payload))
        self.compressedWindowBits = compressor.windowBits
    }
}
