import Logging
import NIOCore
import WebSocket

/// What the engine does with a session (``SessionSink``): its messages
/// written on the connection, framed once for all, and the closes it asks for.
extension SyncSession {
    /// Writes an engine message; the same array sent to many sessions is framed once (``SharedFrames``).
    func send(_ message: [UInt8]) {
        outbound.write(frames.prepared(message))
    }

    /// The connection's event loop: the engine's fan-out for this session runs there.
    var eventLoop: (any EventLoop)? { outbound.eventLoop }

    /// Whether the connection's outbound buffer is below its high-water mark
    /// (``SessionConfiguration/outboundHighWaterMark``).
    var isWritable: Bool { outbound.isWritable }

    /// Calls `drained` once the outbound buffer is below the low-water mark;
    /// never when the connection closes first.
    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
        logger.debug("slow consumer: waiting for the outbound buffer to drain", metadata: ["session": "\(id)"])
        outbound.whenWritable().whenComplete { [logger, id] result in
            switch result {
            case .success:
                logger.debug("drained", metadata: ["session": "\(id)"])
                drained()
            case .failure(let error):
                logger.debug("closed while slow", metadata: ["session": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// Closes the connection with 1008 (policy violation) and `reason`.
    func close(reason: String) {
        outbound.close(code: .policyViolation, reason: reason, promise: nil)
    }

    /// Closes the connection with 1013 (try again later) and `reason`, so that the client goes to another node.
    func moveElsewhere(reason: String) {
        outbound.close(code: .tryAgainLater, reason: reason, promise: nil)
    }
}
