import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pauses accepting when `accept` fails for lack of resources (out of
/// descriptors: `EMFILE`, `ENFILE`; out of buffers or memory), and resumes
/// after a while: the pending connections wait in the listen backlog.
///
/// Installed on the listening channel. NIO's own `AcceptBackoffHandler`
/// does not help here: it delays the listener's next `read()` request, but
/// after an accept that failed before any connection was accepted, the
/// listener still has its read pending and stays registered for readability,
/// so the event loop retries `accept` at once, forever (a core spun). Turning
/// `autoRead` off unregisters the listener; turning it on registers it again.
final class AcceptBackoff: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let pause: TimeAmount
    private let paused: (@Sendable (IOError) -> Void)?
    private var resumption: Scheduled<Void>?

    /// Pauses for `pause` after each failed accept, telling `paused` (see
    /// ``WebSocketServerConfiguration/acceptPaused``).
    init(pause: TimeAmount, paused: (@Sendable (IOError) -> Void)? = nil) {
        self.pause = pause
        self.paused = paused
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Self.outOfResources.contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard resumption == nil else { return }
        paused?(error)
        try? context.channel.syncOptions?.setOption(.autoRead, value: false)  // fails only once closed
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        resumption = context.eventLoop.scheduleTask(in: pause) {
            handler.value.resumption = nil
            try? channel.syncOptions?.setOption(.autoRead, value: true)  // fails only once closed
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        resumption?.cancel()
        resumption = nil
    }

    private static let outOfResources: Set<Int32> = [EMFILE, ENFILE, ENOBUFS, ENOMEM]
}

@available(*, unavailable)
extension AcceptBackoff: Sendable {}
