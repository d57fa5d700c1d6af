public import NIOCore

/// One connected session, as ``SyncEngine`` sees it. The session layer
/// implements it over its WebSocket connection; tests use a recording fake.
///
/// The engine calls it from the event loop of the session's fan-out shard
/// (``eventLoop`` when the sink has one), one call at a time per session
/// (a large snapshot or value is written from the shard's answer encoder
/// while the shard holds everything else back), and never waits for it:
/// `send` must only queue the bytes.
///
/// Backpressure is explicit: before sending, the engine reads
/// ``isWritable``. When it is `false` the engine holds the session's
/// messages back (it becomes a *slow consumer*) and calls
/// ``notifyWhenWritable(_:)`` once; the sink calls the given closure when
/// it can take more, and the engine then sends one coalesced patch per
/// subscription, then the answers it held back.
///
/// ```swift
/// final class ConnectionSink: SessionSink {
///     func send(_ message: [UInt8]) { outbound.write(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: message))) }
///     var isWritable: Bool { outbound.isWritable }
///     func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void) {
///         outbound.whenWritable().whenSuccess { drained() }
///     }
///     func close(reason: String) { outbound.close(code: .policyViolation, reason: reason, promise: nil) }
/// }
/// ```
public protocol SessionSink: AnyObject, Sendable {
    /// Queues one complete server message (a UTF-8 JSON text frame) without
    /// blocking. The same array may be passed to many sinks: do not mutate it.
    func send(_ message: [UInt8])
    /// The event loop that writes the session's connection, if it has one:
    /// the engine then prepares and sends its messages on that loop, so a
    /// write needs no hop. `nil` (the default) lets the engine choose.
    var eventLoop: (any EventLoop)? { get }
    /// Whether the session takes more messages now: its backlog is below
    /// its high-water mark. Reading it has no side effect.
    var isWritable: Bool { get }
    /// The engine found the sink not writable and holds its messages back:
    /// call `drained` once the backlog has fallen below the low-water mark
    /// (at once when it already has). Not called again until `drained` ran;
    /// a session that closes meanwhile need not call it.
    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void)
    /// The engine gives up on the session: it does not read, and more
    /// answers wait for it than ``SyncEngineConfiguration/maxDeferredAnswers``
    /// or ``SyncEngineConfiguration/maxDeferredBytes`` allow. Close the
    /// connection (a WebSocket with 1008 and `reason`); the session then
    /// leaves the engine as any closed one does. Called at most once.
    func close(reason: String)
    /// This node no longer serves the store (another node wrote it at a
    /// newer app schema version than this node knows): close the connection
    /// so that the client goes to another node (a WebSocket with 1013, try
    /// again later, and `reason`). Default: ``close(reason:)``.
    func moveElsewhere(reason: String)
}

extension SessionSink {
    /// No event loop of its own: the engine spreads such sessions over its loops.
    public var eventLoop: (any EventLoop)? { nil }

    /// Closes as ``close(reason:)`` does.
    public func moveElsewhere(reason: String) {
        close(reason: reason)
    }
}
