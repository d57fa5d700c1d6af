import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pauses accepting when `accept` fails for lack of resources (`EMFILE`, `ENFILE`, memory) and resumes later;
/// pending connections wait in the listen backlog. It turns `autoRead` off, which unregisters the listener: NIO's
/// `AcceptBackoffHandler` only delays the next `read()`, so the loop would keep retrying `accept` at once.
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
