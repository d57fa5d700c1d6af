public import NIOCore

/// The steps of closing a connection, in order: write ``frame`` (if any) and
/// flush it, then close TCP if ``closeConnection`` says so.
public struct WebSocketCloseAction: Hashable, Sendable {
    /// A close frame to write and flush first; `nil` when there is none to
    /// send (ours went out earlier, or a timeout expired).
    public var frame: ByteBuffer?
    /// `true`: close TCP once ``frame`` is written (at once without a frame). `false`: keep reading until the peer
    /// closes, giving up at ``WebSocketConnectionStateMachine/nextDeadline``.
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
