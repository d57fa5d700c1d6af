public import NIOCore

/// What a channel handler must do after asking ``WebSocketConnectionStateMachine``
/// something. One enum serves reads, timers and closing, so the handler
/// needs a single `perform(_:)`.
///
/// ```swift
/// func perform(_ action: WebSocketConnectionAction, context: ChannelHandlerContext) {
///     switch action {
///     case .doNothing: break
///     case .deliver(let message): context.fireChannelRead(wrapInboundOut(message))
///     case .write(let bytes): context.writeAndFlush(wrapOutboundOut(bytes), promise: nil)
///     case .close(let close):
///         if let frame = close.frame {
///             let written = context.writeAndFlush(wrapOutboundOut(frame))
///             if close.closeConnection { written.whenComplete { _ in context.close(promise: nil) } }
///         } else if close.closeConnection {
///             context.close(promise: nil)
///         }
///     }
/// }
/// ```
public enum WebSocketConnectionAction: Hashable, Sendable {
    /// Nothing to do (a frame was consumed, a pong arrived, a timer was early).
    case doNothing
    /// A whole text or binary message arrived: pass it to the application.
    case deliver(WebSocketMessage)
    /// Write and flush these bytes (a pong answering a ping, a keepalive ping).
    case write(ByteBuffer)
    /// The connection is closing: see ``WebSocketCloseAction``.
    case close(WebSocketCloseAction)
}

/// The steps of closing a connection, in order: write ``frame`` (if any) and
/// flush it, then close TCP if ``closeConnection`` says so.
public struct WebSocketCloseAction: Hashable, Sendable {
    /// A close frame to write and flush first; `nil` when there is none to
    /// send (ours went out earlier, or a timeout expired).
    public var frame: ByteBuffer?
    /// `true`: close the TCP connection once ``frame`` is written (or at
    /// once without a frame). `false`: keep reading; the peer's close frame
    /// or its closing of TCP ends things, and
    /// ``WebSocketConnectionStateMachine/nextDeadline`` is when to give up
    /// (``WebSocketConfiguration/closeTimeout``).
    public var closeConnection: Bool
    /// The protocol violation that made this endpoint fail the connection, if that is why.
    public var error: WebSocketProtocolError?

    /// Creates a close action.
    public init(frame: ByteBuffer?, closeConnection: Bool, error: WebSocketProtocolError? = nil) {
        self.frame = frame
        self.closeConnection = closeConnection
        self.error = error
    }
}
