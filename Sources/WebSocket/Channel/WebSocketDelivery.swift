/// Where a connection's received messages go: the part in which its two
/// delivery modes differ. ``WebSocketChannelHandler`` holds one and calls it
/// on the connection's event loop.
///
/// - ``TaskDelivery``: a backpressured `AsyncSequence` a task iterates.
/// - ``EventLoopDelivery``: a ``WebSocketEventLoopHandler`` called in place.
protocol WebSocketDelivery: SendableMetatype {
    /// The connection is open: its handler is in the pipeline.
    func connectionOpened(_ outbound: WebSocketOutbound)

    /// Hands on a message; the answer says whether the receiver can take more
    /// for now. (`mutating` so that the handler calls it in place: a call of a
    /// non-mutating method copies the delivery out of the handler, and with it
    /// retains and releases the receiver, for every message.)
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
