import NIOCore

/// What a ``WebSocketOutbound`` asks of its connection's channel handler,
/// whichever way that handler delivers messages. Called on the connection's
/// event loop only.
protocol WebSocketOutboundTarget: AnyObject {
    /// Encodes and writes `message`; `promise` succeeds once the channel is writable.
    func send(_ message: WebSocketMessage, promise: EventLoopPromise<Void>?)
    /// Writes a message prepared once for many connections.
    func send(_ prepared: WebSocketPreparedMessage, promise: EventLoopPromise<Void>?)
    /// Starts the close handshake; `promise` completes when the channel is closed.
    func close(status: WebSocketCloseStatus, promise: EventLoopPromise<Void>?)
    /// Succeeds `promise` once the channel is writable; fails it if the connection closes first.
    func waitUntilWritable(_ promise: EventLoopPromise<Void>)
    /// Holds socket reads until ``resumeReading()``.
    func holdReading()
    /// Lets socket reads go on after ``holdReading()``.
    func resumeReading()
    /// Bytes written but not yet handed to the socket.
    var bufferedOutboundBytes: Int { get }
}
