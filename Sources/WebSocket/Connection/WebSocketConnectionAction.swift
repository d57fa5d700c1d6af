public import NIOCore

/// What a channel handler must do after asking ``WebSocketConnectionStateMachine`` something; one enum for
/// reads, timers and closing, so the handler needs a single `perform(_:)`.
public enum WebSocketConnectionAction: Hashable, Sendable {
    /// Nothing to do (a frame was consumed, a pong arrived, a timer was early).
    case doNothing
    /// A whole text or binary message arrived: pass it to the application.
    case deliver(WebSocketMessage)
    /// Write and flush these bytes (a keepalive ping).
    case write(ByteBuffer)
    /// Write and flush this pong, which answers a ping. While pongs written
    /// before it are still unsent, a handler may send only the latest one
    /// (RFC 6455 §5.5.3), as ``WebSocketChannelHandler`` does past a few.
    case pong(ByteBuffer)
    /// The connection is closing: see ``WebSocketCloseAction``.
    case close(WebSocketCloseAction)
}
