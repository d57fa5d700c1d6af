public import NIOCore

/// Limits, timers and compression of one WebSocket connection; the defaults suit a server holding many
/// connections of small JSON messages (a client receiving large snapshots may raise ``maxMessageSize``).
///
/// ```swift
/// var configuration = WebSocketConfiguration()
/// configuration.maxMessageSize = 16 << 20
/// configuration.pingInterval = nil        // no keepalive pings
/// configuration.compression = nil         // never negotiate permessage-deflate
/// ```
public struct WebSocketConfiguration: Hashable, Sendable {
    /// The default of ``maxFrameSize``: 1 MiB.
    public static let defaultMaxFrameSize = 1 << 20

    /// The largest payload one received frame may declare. Default 1 MiB: a frame is buffered whole, so this bounds
    /// what a peer can make this endpoint hold; a larger frame fails with 1009 as soon as its header arrives.
    public var maxFrameSize: Int
    /// The largest message that may be received, after reassembly and inflating. Default 4 MiB; a larger one fails
    /// with 1009 as soon as the running total passes it.
    public var maxMessageSize: Int
    /// How long to wait for the peer's close frame after sending one (for a client, also for the server to close
    /// TCP) before closing anyway. Default 5 s.
    public var closeTimeout: TimeAmount
    /// How long after the last received byte a ping is sent; `nil` sends
    /// none. Default 30 s: below the 60 s idle cut of common proxies and
    /// load balancers, so quiet connections stay open.
    public var pingInterval: TimeAmount?
    /// How long without receiving any byte before the connection is closed
    /// (close code 1001, then ``closeTimeout``); `nil` never. Default 90 s:
    /// three missed ping intervals, so only a dead peer hits it.
    public var idleTimeout: TimeAmount?
    /// The most pings the peer may send per (whole) second; one more fails the connection with 1008. `nil`: no
    /// limit. Default 100, so a ping flood cannot keep a shared event loop busy.
    public var maxPingsPerSecond: Int?
    /// permessage-deflate settings; `nil` never negotiates compression.
    /// Default: on, with the defaults of ``PerMessageDeflateConfiguration``.
    public var compression: PerMessageDeflateConfiguration?

    /// Creates a configuration; every parameter has the default documented on its property.
    public init(
        maxFrameSize: Int = WebSocketConfiguration.defaultMaxFrameSize,
        maxMessageSize: Int = 4 << 20,
        closeTimeout: TimeAmount = .seconds(5),
        pingInterval: TimeAmount? = .seconds(30),
        idleTimeout: TimeAmount? = .seconds(90),
        maxPingsPerSecond: Int? = 100,
        compression: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration()
    ) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
        self.closeTimeout = closeTimeout
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.maxPingsPerSecond = maxPingsPerSecond
        self.compression = compression
    }
}
