/// A received message and the time it arrived (``WebSocketInboundMessages/AsyncIterator/nextReceived()``), so a
/// task consumer that handles it late can still measure what happened on the wire, e.g. for a rate limit.
///
/// ```swift
/// var messages = connection.inbound.makeAsyncIterator()
/// while let received = await messages.nextReceived() {
///     let waited = received.receivedAt.duration(to: .now)   // time spent in the inbound buffer
///     handle(received.message)
/// }
/// ```
public struct WebSocketReceivedMessage: Hashable, Sendable {
    /// The message.
    public var message: WebSocketMessage
    /// When the message arrived: the continuous-clock time at which the event loop handled the read that completed
    /// it (for a fragmented message, its last frame); messages read together share it.
    public var receivedAt: ContinuousClock.Instant

    /// A message received at `receivedAt`.
    public init(message: WebSocketMessage, receivedAt: ContinuousClock.Instant) {
        self.message = message
        self.receivedAt = receivedAt
    }
}
