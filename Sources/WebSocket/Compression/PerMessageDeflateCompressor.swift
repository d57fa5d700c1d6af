import CompressNIO
public import NIOCore

/// Compresses whole messages for permessage-deflate (RFC 7692 §7.2.1): raw DEFLATE with a sync flush, without
/// the trailing `0x00 0x00 0xFF 0xFF`. Without context takeover it resets after every message.
/// Window bits are 9–15: zlib cannot use 8, so a side with 8 sends uncompressed, as RFC 7692 allows.
/// It wraps a zlib stream, so it is not `Sendable`: one per connection, on that connection's event loop.
///
/// ```swift
/// let compressor = try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true)
/// let wire = try compressor.compress(ByteBuffer(string: "Hello"))  // f2 48 cd c9 c9 07 00
/// ```
public final class PerMessageDeflateCompressor {
    /// The window size used, 2^n bytes.
    public let windowBits: Int
    /// Whether the compressor resets after each message.
    public let noContextTakeover: Bool
    private let zlib: ZlibCompressor

    /// Creates a compressor with `windowBits` 9–15 and zlib levels 1–9.
    ///
    /// - Throws: ``WebSocketSendError/compressionFailed(_:)`` when an argument is out of range or zlib cannot
    ///   allocate its state.
    public init(windowBits: Int, noContextTakeover: Bool, compressionLevel: Int = 6, memoryLevel: Int = 8)
        throws(WebSocketSendError)
    {
        guard (9...15).contains(windowBits), (1...9).contains(compressionLevel), (1...9).contains(memoryLevel) else {
            throw .compressionFailed(
                "unsupported zlib settings: window bits \(windowBits), level \(compressionLevel), memory level \(memoryLevel)"
            )
        }
        self.windowBits = windowBits
        self.noContextTakeover = noContextTakeover
        do {
            self.zlib = try ZlibCompressor(
                algorithm: .deflate,
                configuration: ZlibConfiguration(
                    windowSize: Int32(windowBits),
                    compressionLevel: Int32(compressionLevel),
                    memoryLevel: Int32(memoryLevel)
                )
            )
        } catch {
            throw .compressionFailed("zlib deflate init failed: \(error)")
        }
    }

    /// Compresses one message's payload; returns the bytes to send with RSV1 set.
    public func compress(_ payload: ByteBuffer) throws(WebSocketSendError) -> ByteBuffer {
        guard payload.readableBytes > 0 else {
            // An empty message: one empty stored block, which is the single byte 0x00 once its tail is removed.
            return ByteBuffer(bytes: [0x00])
        }
        var input = payload
        var output = ByteBufferAllocator().buffer(capacity: zlib.maxSize(from: input))
        do {
            try zlib.deflate(from: &input, to: &output, flush: .sync)
            // A sync flush that filled the buffer may have more to give; drain it.
            while input.readableBytes > 0 || output.writableBytes == 0 {
                output.reserveCapacity(minimumWritableBytes: max(1024, input.readableBytes))
                try zlib.deflate(from: &input, to: &output, flush: .sync)
            }
            if noContextTakeover { try zlib.reset() }
        } catch {
            throw .compressionFailed("zlib deflate failed: \(error)")
        }
        guard output.readableBytes >= 4,
            output.getInteger(at: output.writerIndex - 4, as: UInt32.self) == 0x0000_FFFF
        else {
            throw .compressionFailed("deflate output does not end with an empty stored block")
        }
        output.moveWriterIndex(to: output.writerIndex - 4)
        return output
    }
}

@available(*, unavailable)
extension PerMessageDeflateCompressor: Sendable {}
