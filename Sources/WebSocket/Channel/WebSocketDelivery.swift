/// Where a connection's received messages go: ``TaskDelivery`` (an `AsyncSequence` a task iterates) or
/// ``EventLoopDelivery`` (a handler called in place). ``WebSocketChannelHandler`` calls it on its event loop.
protocol WebSocketDelivery: SendableMetatype {
    /// The connection is open: its handler is in the pipeline.
    func connectionOpened(_ outbound: WebSocketOutbound)

    /// Hands on a message; the answer says whether the receiver can take more for now. `mutating` so the handler
    /// calls it in place, without copying the delivery (and retaining the receiver) per message.
    mutating func deliver(_ message: WebSocketReceivedMessage, outbound: WebSocketOutbound) -> WebSocketDeliveryOutcome

    /// The connection closed with `status`: ends the delivery and lets go of
    /// the receiver. Called once.
    mutating func connectionClosed(_ outbound: WebSocketOutbound, status: WebSocketCloseStatus)
}

/// Whether the receiver of a message can take more for now.
enum WebSocketDeliveryOutcome {
    /// It can: reading goes on.
    case accepted
    /// It is behind: no socket reads until it tells the handler it caught up.
    case receiverBehind
}
