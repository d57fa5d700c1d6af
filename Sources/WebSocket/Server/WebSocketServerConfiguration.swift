public import NIOHTTP1
public import NIOCore
public import NIOSSL

/// How a ``WebSocketServer`` listens and accepts. Every field has a default: `WebSocketServerConfiguration()`
/// listens on `127.0.0.1` with an OS-chosen port and no TLS.
public struct WebSocketServerConfiguration: Sendable {
    /// The address to bind. Default `127.0.0.1`: nothing is exposed to the
    /// network unless asked for (`0.0.0.0` or `::` to listen everywhere).
    public var host: String
    /// The TCP port; `0` (the default) lets the OS choose, which tests need.
    /// ``WebSocketServer/waitUntilStarted()`` reports the bound port.
    public var port: Int
    /// The listen backlog. Default 4,096 so that a ramp of thousands of
    /// connections is not refused while the accept loop catches up (the
    /// kernel caps it at `net.core.somaxconn`).
    public var backlog: Int32
    /// Connections accepted per wake-up of the listening socket. Default 256:
    /// a burst of connects is drained in few event-loop turns instead of one
    /// connection per turn (NIO's default is 4).
    public var acceptsPerRead: UInt
    /// The read buffer a new connection starts with, in bytes; it doubles while reads fill it (up to 64 KiB)
    /// and shrinks back. An idle connection keeps it, so the default is small: 256, enough for a client
    /// library's upgrade request.
    public var initialReadBufferSize = 256
    /// The largest request head (request line and headers) accepted, in
    /// bytes. Default 16 KiB, well above what browsers send, small enough that
    /// a client cannot make the server buffer much; beyond it the answer is 431.
    public var maxRequestHeadSize: Int
    /// The largest body a plain HTTP route accepts. Default 64 KiB: routes
    /// such as `/health` need none; beyond it the answer is 413.
    public var maxRequestBodySize: Int
    /// How long ``WebSocketServer/shutdown()`` waits for WebSockets to finish
    /// their close handshake (after sending 1001) before dropping them.
    /// Default 5 s, the usual grace period of process supervisors minus margin.
    public var shutdownGracePeriod: TimeAmount
    /// TLS for `wss://`; `nil` (the default) serves plain `ws://`.
    public var tls: TLSConfiguration?
    /// How long a client has to send a whole HTTP request (from the accept, or from the first byte of a later
    /// request) before it gets 408 and is closed. Default 10 s, which bounds how long a slowloris client holds
    /// a descriptor.
    public var requestTimeout: TimeAmount
    /// How long a kept-alive HTTP connection may stay silent between requests before it is closed. Default 30 s,
    /// below the 60 s idle cut of common proxies, so the server releases an idle socket first.
    public var keepAliveTimeout: TimeAmount
    /// Open TCP connections (HTTP and WebSocket) above which a new one is answered 503 and closed. Default 16,384;
    /// keep it below the open-file limit (`ulimit -n`) minus the server's own files.
    public var maxConnections: Int
    /// Open TCP connections from one client address (IPv6: one /64) above which a new one is answered 503 and
    /// closed. Default 1,024, a sixteenth of the default ``maxConnections``; raise it for load generators.
    public var maxConnectionsPerAddress: Int
    /// How long the listener stops accepting after `accept` failed (`EMFILE`, `ENFILE`, out of memory), so the
    /// event loop does not retry in a busy loop. Default 100 ms.
    public var acceptBackoff: TimeAmount
    /// Called on the listener's event loop each time accepting pauses for lack of resources, with the `accept`
    /// error. Default `nil`; log and count it, or a full descriptor table only shows as failing clients.
    public var acceptPaused: (@Sendable (IOError) -> Void)?
    /// Looks at every request head (HTTP and upgrades) before routing; a returned response refuses the request
    /// and closes the connection. For server-wide policies such as allowed `Host`s or `Origin`s. Default `nil`.
    public var requestFilter: (@Sendable (HTTPRequestHead) -> HTTPRouteResponse?)?

    /// Creates a configuration; every argument has the default documented on its property.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        backlog: Int32 = 4096,
        acceptsPerRead: UInt = 256,
        maxRequestHeadSize: Int = 16 * 1024,
        maxRequestBodySize: Int = 64 * 1024,
        shutdownGracePeriod: TimeAmount = .seconds(5),
        tls: TLSConfiguration? = nil,
        requestTimeout: TimeAmount = .seconds(10),
        keepAliveTimeout: TimeAmount = .seconds(30),
        maxConnections: Int = 16_384,
        maxConnectionsPerAddress: Int = 1_024,
        acceptBackoff: TimeAmount = .milliseconds(100)
    ) {
        self.host = host
        self.port = port
        self.backlog = backlog
        self.acceptsPerRead = acceptsPerRead
        self.maxRequestHeadSize = maxRequestHeadSize
        self.maxRequestBodySize = maxRequestBodySize
        self.shutdownGracePeriod = shutdownGracePeriod
        self.tls = tls
        self.requestTimeout = requestTimeout
        self.keepAliveTimeout = keepAliveTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.acceptBackoff = acceptBackoff
    }
}
