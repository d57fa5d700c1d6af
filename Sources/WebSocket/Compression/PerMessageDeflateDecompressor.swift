import CompressNIO
public import NIOCore

/// Inflates permessage-deflate messages (RFC 7692 §7.2.2) in chunks of at most 16 KiB, checking the limit before
/// keeping each, so a deflate bomb fails with 1009 holding at most the limit plus one chunk.
/// It wraps a zlib stream, so it is not `Sendable`: one per connection.
public final class PerMessageDeflateDecompressor {
    /// The window size the peer compresses with, 2^n bytes (8–15).
    public let windowBits: Int
    /// Whether the peer resets its compressor after each message.
    public let noContextTakeover: Bool
    private let zlib: ZlibDecompressor
    private static let chunkSize = 16 * 1024
    private static let tail = ByteBuffer(bytes: [0x00, 0x00, 0xFF, 0xFF])

    /// Creates a decompressor for a peer compressing with at most 2^`windowBits` bytes of window; throws
    /// ``WebSocketProtocolError/invalidCompressedData(_:)`` outside 8–15 or when zlib cannot allocate its state.
    public init(windowBits: Int, noContextTakeover: Bool) throws(WebSocketProtocolError) {
        guard (8...15).contains(windowBits) else { throw .invalidCompressedData("window bits \(windowBits) outside 8-15") }
        self.windowBits = windowBits
        self.noContextTakeover = noContextTakeover
        do {
            self.zlib = try ZlibDecompressor(algorithm: .deflate, windowSize: Int32(windowBits))
        } catch {
            throw .invalidCompressedData("zlib inflate init failed: \(error)")
        }
    }

    /// Inflates one frame's (unmasked) payload, appending to `output`; with `isFinal` it also inflates the
    /// `0x00 0x00 0xFF 0xFF` tail the sender removed.
    ///
    /// - Throws: ``WebSocketProtocolError/messageTooLarge(length:limit:)`` once `output` passes `limit`,
    ///   ``WebSocketProtocolError/invalidCompressedData(_:)`` for data zlib rejects.
    public func inflate(
        _ payload: ByteBuffer,
        into output: inout ByteBuffer,
        isFinal: Bool,
        limit: Int
    ) throws(WebSocketProtocolError) {
        try run(payload, into: &output, limit: limit)
        if isFinal {
            try run(Self.tail, into: &output, limit: limit)
            if noContextTakeover {
                do { try zlib.reset() } catch { throw .invalidCompressedData("zlib reset failed: \(error)") }
            }
        }
    }

    /// Inflates `input` through a fixed-size scratch chunk, so zlib never
    /// writes more than one chunk past what the limit check has seen.
    private func run(_ input: ByteBuffer, into output: inout ByteBuffer, limit: Int) throws(WebSocketProtocolError) {
        var input = input
        var chunk = ByteBufferAllocator().buffer(capacity: Self.chunkSize)
        var outputPending = false
        while input.readableBytes > 0 || outputPending {
            chunk.clear()
            let inputBefore = input.readableBytes
            do {
                try zlib.inflate(from: &input, to: &chunk)
                outputPending = false
            } catch let error as CompressNIOError where error == .bufferOverflow {
                outputPending = true
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                // zlib made no progress and wants more input: the rest comes with the next frame.
                return
            } catch {
                throw .invalidCompressedData("\(error)")
            }
            let produced = chunk.readableBytes
            guard output.readableBytes + produced <= limit else {
                throw .messageTooLarge(length: output.readableBytes + produced, limit: limit)
            }
            output.writeBuffer(&chunk)
            if !outputPending, inputBefore == input.readableBytes, produced == 0 {
                // The sender ended the DEFLATE stream (a block with BFINAL set), so zlib
                // takes no more input: drop what follows and start the next message afresh.
                do { try zlib.reset() } catch { throw .invalidCompressedData("zlib reset failed: \(error)") }
                return
            }
        }
    }
}

@available(*, unavailable)
extension PerMessageDeflateDecompressor: Sendable {}
