public import NIOSSL
public import WebSocket

/// How a ``StateSyncClient`` connects: where, as whom, and how it recovers.
///
/// ```swift
/// var configuration = StateSyncClientConfiguration(url: "ws://127.0.0.1:8080/sync")
/// configuration.clientID = savedClientID      // keep it across launches
/// configuration.name = "alice-laptop"
/// configuration.waitsForServer = true         // a long-running UI retries from the start
///
/// // The nodes of a cluster: a drop fails over to the next one.
/// let cluster = StateSyncClientConfiguration(urls: ["ws://10.0.0.1:8080/sync", "ws://10.0.0.2:8080/sync"])
/// ```
public struct StateSyncClientConfiguration: Sendable {
    /// The servers (`ws://HOST:PORT/sync` or `wss://…`): one, or the nodes of a cluster. After a failure or drop
    /// the client tries the next in turn; ``reconnect``'s delay grows per full round, not per node. Default: a local
    /// `statesync serve`; an empty list ends ``StateSyncClient/run()`` with `cannotConnect`.
    public var urls: [String]

    /// The first of ``urls``; setting it makes it the only one.
    public var url: String {
        get { urls.first ?? "" }
        set { urls = [newValue] }
    }

    /// The stable id that scopes action ids for the server's de-duplication (docs/PROTOCOL.md, `hello`). Default:
    /// a new random id; persist it to keep one identity across launches.
    public var clientID: String

    /// The token for a server with authentication; `nil` (default) for an open server.
    public var token: String?

    /// The name others see in presence; `nil` (default) lets the server name
    /// the session after its session id.
    public var name: String?

    /// The app schema version this build speaks, sent in `hello`: a server that accepts no client this old refuses
    /// it (`upgrade_required`), and an older node is left for the next URL. Outbox entries record it so the server
    /// upcasts kept actions. Default `nil`: not declared.
    public var schemaVersion: Int?

    /// Delays between reconnection attempts.
    public var reconnect: ReconnectPolicy

    /// When `false` (default), a failed first connection ends ``StateSyncClient/run()`` with the error; when `true`,
    /// the client retries with ``reconnect``'s delays. After a drop the client always reconnects.
    public var waitsForServer: Bool

    /// WebSocket limits, keepalive and compression. The default offers
    /// permessage-deflate and pings every 30 s, so a dead server is noticed.
    public var webSocket: WebSocketConfiguration

    /// TLS for `wss://`; `nil` (default) trusts the system's root certificates.
    public var tlsConfiguration: TLSConfiguration?

    /// Where unanswered dispatches are kept: in memory (default), or also in
    /// a file, so that a client restarted after a crash or while offline
    /// sends them again with their ids (``ClientOutbox``).
    public var outbox: ClientOutbox

    /// The most dispatches awaiting the server's answer at once (default 1,000); one more throws
    /// ``StateSyncClientError/tooManyPendingDispatches(limit:)``.
    public var maxPendingDispatches: Int

    /// A configuration for the server at `url`, with a new random ``clientID``.
    public init(url: String = "ws://127.0.0.1:8080/sync") {
        self.init(urls: [url])
    }

    /// A configuration for the servers at `urls` (the nodes of a cluster,
    /// tried in turn), with a new random ``clientID``.
    public init(urls: [String]) {
        self.urls = urls
        self.clientID = Self.randomID(prefix: "c-")
        self.token = nil
        self.name = nil
        self.reconnect = ReconnectPolicy()
        self.waitsForServer = false
        self.webSocket = WebSocketConfiguration()
        self.tlsConfiguration = nil
        self.outbox = .memory
        self.maxPendingDispatches = 1_000
    }

    /// `prefix` followed by 12 random hexadecimal digits.
    static func randomID(prefix: String) -> String {
        let digits = String(UInt64.random(in: 0..<(1 << 48)), radix: 16)
        return prefix + String(repeating: "0", count: 12 - digits.count) + digits
    }
}
