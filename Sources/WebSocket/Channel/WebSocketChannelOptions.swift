public import NIOCore

/// Channel-level settings of a WebSocket connection that are about I/O, not
/// the protocol: buffering in both directions and the handshake deadline.
/// (The protocol's limits and timers are in ``WebSocketConfiguration``.)
public struct WebSocketChannelOptions: Hashable, Sendable {
    /// Received messages a task may fall behind by before the connection stops reading the socket. Default 16,
    /// which bounds what a slow consumer holds (this many messages of up to the maximum message size).
    public var inboundHighWatermark: Int
    /// Reading resumes when the backlog falls to this many messages. Default 4.
    public var inboundLowWatermark: Int
    /// Outbound bytes waiting for the socket above which the connection is
    /// not writable. Default 256 KiB: a few hundred broadcast messages for a
    /// slow subscriber before the sender must skip or coalesce.
    public var outboundHighWatermark: Int
    /// The connection is writable again once the backlog falls below this.
    /// Default 64 KiB.
    public var outboundLowWatermark: Int
    /// Outbound bytes waiting for the socket above which the connection is closed with 1008, whatever queued them.
    /// Default 8 MiB (32 times the high-water mark), so a sender respecting ``WebSocketOutbound/isWritable``
    /// never reaches it, while a peer that stops reading costs at most this much.
    public var maxOutboundBytes: Int
    /// How long a client waits for TCP, TLS and the 101 response. Default 10 s.
    public var handshakeTimeout: TimeAmount
    /// The local address a client connection binds before it connects; default `nil`: the system chooses. A load
    /// generator spreads connections over several addresses (about 28,000 ports each towards one server address).
    public var localAddress: SocketAddress?
    /// What stamps received messages (``WebSocketReceivedMessage/receivedAt``).
    /// Default the continuous clock; tests in this package substitute one
    /// they control.
    package var arrivalClock: ArrivalClock = .continuous

    /// Creates options; every parameter has the default documented on its property.
    public init(
        inboundHighWatermark: Int = 16,
        inboundLowWatermark: Int = 4,
        outboundHighWatermark: Int = 256 * 1024,
        outboundLowWatermark: Int = 64 * 1024,
        maxOutboundBytes: Int = 8 << 20,
        handshakeTimeout: TimeAmount = .seconds(10)
    ) {
        self.inboundHighWatermark = inboundHighWatermark
        self.inboundLowWatermark = inboundLowWatermark
        self.outboundHighWatermark = outboundHighWatermark
        self.outboundLowWatermark = outboundLowWatermark
        self.maxOutboundBytes = maxOutboundBytes
        self.handshakeTimeout = handshakeTimeout
    }
}
