public import NIOCore

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
