public import NIOHTTP1
public import NIOCore
public import NIOSSL

/// How a ``WebSocketServer`` listens and accepts.
///
/// Every field has a default; a zero-argument `WebSocketServerConfiguration()`
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
    /// The read buffer a new connection starts with, in bytes; it doubles
    /// while reads fill it (up to 64 KiB) and shrinks back when they do not.
    /// Each connection keeps its buffer between reads, so this is what an
    /// idle connection holds. Default 256: a client library's upgrade request
    /// and its messages fit (a browser's larger request takes a read more,
    /// and grows the buffer); 512 cost 19,500 idle connections 5 MB more, and
    /// NIO's default of 2,048 costs 10,000 of them 15 MB more than 512.
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
    /// How long a client has to send a whole HTTP request (head and body),
    /// counted from the accept for a connection's first request and from
    /// its first byte for later ones; then it gets 408 and is closed.
    /// Default 10 s: a request is a few hundred bytes, sent at once by any
    /// real client even on a slow network, while a client that trickles
    /// bytes (slowloris) holds a descriptor for at most this long.
    public var requestTimeout: TimeAmount
    /// How long a kept-alive HTTP connection may stay silent between
    /// requests before it is closed. Default 30 s: long enough for a page
    /// and its polling to reuse a connection, shorter than the 60 s idle cut
    /// of common proxies, so an idle socket is released by the server first.
    public var keepAliveTimeout: TimeAmount
    /// Open TCP connections (HTTP and WebSocket alike) above which a new one
    /// is answered `503 Service Unavailable` and closed. Default 16,384:
    /// room for 10,000 WebSocket clients (the project's load target) and
    /// their HTTP traffic; keep it below the process's open-file limit
    /// (`ulimit -n`) minus what the server needs for its own files.
    public var maxConnections: Int
    /// Open TCP connections from one client address (IPv6: one /64 network)
    /// above which a new one from there is answered 503 and closed. Default
    /// 1,024: far above one person's tabs and devices, and above an office
    /// behind one NAT address, while one host cannot take more than a
    /// sixteenth of ``maxConnections``. Raise it for load generators.
    public var maxConnectionsPerAddress: Int
    /// How long the listener stops accepting after `accept` failed (out of
    /// descriptors: `EMFILE`, `ENFILE`; out of memory). Default 100 ms: the
    /// pending connections wait in the backlog instead of the event loop
    /// retrying `accept` in a busy loop, and service resumes within a tenth
    /// of a second once descriptors are free again.
    public var acceptBackoff: TimeAmount
    /// Called (on the listener's event loop) each time accepting pauses for
    /// lack of resources, with the failed `accept`'s error (`EMFILE`: this
    /// process's open-file limit; `ENFILE`: the system's). Default `nil`. A
    /// server logs and counts it: otherwise a full descriptor table only
    /// shows as clients that cannot connect.
    public var acceptPaused: (@Sendable (IOError) -> Void)?
    /// Looks at every request head before it is routed, plain HTTP requests
    /// and WebSocket upgrades alike: a response refuses the request with it
    /// (the connection then closes). Default `nil`: every request is routed.
    /// A server uses it for policies that hold for every endpoint, such as
    /// allowed `Host` names or `Origin`s.
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
