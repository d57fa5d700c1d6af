/// A received message and the time it arrived, as
/// ``WebSocketInboundMessages/AsyncIterator/nextReceived()`` returns it.
///
/// A task consumer may handle a message long after it arrived (it was busy,
/// or the process stalled); ``receivedAt`` lets it measure what happened on
/// the wire, not in its own schedule, e.g. for a rate limit.
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
    /// When the message arrived: the time, on the connection's event loop,
    /// at which the socket read that completed it was handled (for a
    /// fragmented message, the read of its last frame). Messages read
    /// together carry the same instant. The continuous clock measures it.
    public var receivedAt: ContinuousClock.Instant

    /// A message received at `receivedAt`.
    public init(message: WebSocketMessage, receivedAt: ContinuousClock.Instant) {
        self.message = message
        self.receivedAt = receivedAt
    }
}
