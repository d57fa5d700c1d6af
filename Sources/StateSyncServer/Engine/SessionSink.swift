public import NIOCore

/// One connected session, as ``SyncEngine`` sees it; the session layer
/// implements it over its connection, tests with a recording fake.
///
/// The engine calls it from its fan-out shard's event loop, one call at a time
/// per session, and never waits: `send` must only queue the bytes. When
/// ``isWritable`` is `false`, the engine holds messages back and calls
/// ``notifyWhenWritable(_:)`` once, then sends coalesced patches after the drain.
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
    /// Call `drained` once the backlog has fallen below the low-water mark (at
    /// once when it has). Not called again until `drained` ran.
    func notifyWhenWritable(_ drained: @escaping @Sendable () -> Void)
    /// The engine gives up on a session that does not read and exceeds
    /// ``SyncEngineConfiguration/maxDeferredAnswers`` or
    /// ``SyncEngineConfiguration/maxDeferredBytes``: close it (1008). Called at most once.
    func close(reason: String)
    /// This node no longer serves the store (a newer app schema elsewhere):
    /// close so the client goes to another node (1013). Default: ``close(reason:)``.
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
