import Logging
import NIOCore
import Synchronization
import WebSocket

/// Frames the engine's messages once for all their sessions: while the *same
/// array* keeps arriving, it hands out the same ``WebSocketPreparedMessage``.
/// Holding the last array keeps its storage alive, so equal addresses mean equal bytes.
final class SharedFrames: Sendable {
    private struct Last {
        var bytes: [UInt8]
        var prepared: WebSocketPreparedMessage
    }

    /// A compressor lent to one thread at a time: taken from ``State/idle``
    /// under the lock, used outside it, then put back.
    private final class Lent: @unchecked Sendable {
        let compressor: PerMessageDeflateCompressor

        init(_ compressor: PerMessageDeflateCompressor) {
            self.compressor = compressor
        }
    }

    private struct State {
        var last: Last?
        /// Compressors not in use; another is made when two threads frame at once.
        var idle: [Lent] = []
    }

    private let state = Mutex(State())
    private let compress: Bool
    private let logger: Logger

    /// A cache; with `compress`, large frames also get a compressed form.
    init(compress: Bool, logger: Logger) {
        self.compress = compress
        self.logger = logger
    }

    /// The frame of `bytes` (a JSON text message), shared with earlier calls for
    /// the same array. Framing runs outside the lock, so a large answer does not
    /// hold up the shard's fan-out.
    func prepared(_ bytes: [UInt8]) -> WebSocketPreparedMessage {
        let (cached, lent): (WebSocketPreparedMessage?, Lent?) = state.withLock { state in
            if let last = state.last, Self.sameStorage(last.bytes, bytes) { return (last.prepared, nil) }
            return (nil, state.idle.popLast())
        }
        if let cached { return cached }
        let compressor = lent ?? makeCompressor()
        let message = WebSocketMessage(kind: .text, data: ByteBuffer(bytes: bytes))
        let prepared: WebSocketPreparedMessage
        do {
            prepared = try WebSocketPreparedMessage(message, compressor: compressor?.compressor)
        } catch {
            // Only compression can fail: send this frame uncompressed (which cannot fail).
            logger.warning("a frame is sent uncompressed: compression failed", metadata: ["error": "\(error)"])
            prepared = Self.uncompressed(message)
        }
        state.withLock { state in
            state.last = Last(bytes: bytes, prepared: prepared)
            if let compressor { state.idle.append(compressor) }
        }
        return prepared
    }

    /// A new compressor, or `nil` without compression (or when zlib fails).
    private func makeCompressor() -> Lent? {
        guard compress else { return nil }
        do {
            return Lent(try PerMessageDeflateCompressor(windowBits: 15, noContextTakeover: true))
        } catch {
            logger.warning("a frame is sent uncompressed: the compressor failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private static func uncompressed(_ message: WebSocketMessage) -> WebSocketPreparedMessage {
        do {
            return try WebSocketPreparedMessage(message)
        } catch {
            preconditionFailure("framing without a compressor cannot fail: \(error)")
        }
    }

    private static func sameStorage(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { first in
            b.withUnsafeBufferPointer { second in first.baseAddress == second.baseAddress }
        }
    }
}
