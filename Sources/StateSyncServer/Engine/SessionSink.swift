/// One connected session, as ``SyncEngine`` sees it. The session layer
/// implements it over its WebSocket connection; tests use a recording fake.
///
/// The engine calls it from its own task, one call at a time per engine, and
/// never waits for it: `send` must only queue the bytes.
///
/// ```swift
/// final class ConnectionSink: SessionSink {
///     func send(_ message: [UInt8]) { outbound.writeText(message) }
///     var bufferedBytes: Int { outbound.bufferedByteCount }
/// }
/// ```
public protocol SessionSink: AnyObject, Sendable {
    /// Queues one complete server message (a UTF-8 JSON text frame) without
    /// blocking. The same array may be passed to many sinks: do not mutate it.
    func send(_ message: [UInt8])
    /// Bytes queued for this session and not yet written to the socket.
    ///
    /// When it is above ``SyncEngine/Configuration/outboundHighWaterMark``
    /// the engine stops sending this session patches and answers (it becomes
    /// a *slow consumer*) until the session layer calls
    /// ``SyncEngine/sessionDrained(session:)``, which it must do once the
    /// backlog has fallen below its low-water mark.
    var bufferedBytes: Int { get }
}
