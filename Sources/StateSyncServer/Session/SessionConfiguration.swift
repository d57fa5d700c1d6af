public import StateSyncCore
/// The per-connection limits of a StateSync session. The defaults fit
/// interactive clients on a shared server; raise them for trusted bulk clients.
///
/// ```swift
/// var limits = SessionConfiguration()
/// limits.maxSubscriptions = 1_000
/// limits.messagesPerSecond = 1_000
/// ```
public struct SessionConfiguration: Sendable, Hashable {
    /// The largest client message accepted, in bytes; a larger one closes the
    /// connection with 1009 (WebSocket maximum and JSON parser limit). Default 1 MiB.
    public var maxMessageBytes: Int
    /// The deepest JSON nesting accepted in a client message. Default 64:
    /// actions are shallow objects; deeper input is refused with `bad_json`
    /// before it costs stack or memory.
    public var maxNestingDepth: Int
    /// Subscriptions one connection may hold open at once. Default 256: a
    /// UI focuses on tens of paths; each subscription costs the server a
    /// diff per change of its path. Above it: `too_many_subscriptions`.
    public var maxSubscriptions: Int
    /// Stores one connection may use, `main` included; above it: `limit_reached`.
    /// Default 16.
    public var maxStoresPerSession: Int = 16
    /// Sustained messages per second one connection may send (a token
    /// bucket refilled at this rate). Default 200: well above a person
    /// typing or dragging, below what a runaway loop sends.
    public var messagesPerSecond: Int
    /// Messages that may arrive at once above the sustained rate (the
    /// bucket's size). Default 400: two seconds of the sustained rate, so a
    /// reconnect that re-subscribes everything is not refused.
    public var burst: Int
    /// Sustained bytes per second one connection may send, counted as messages
    /// arrive. Bursts up to twice this, and at least one ``maxMessageBytes``
    /// message, pass. Above it: `rate_limited`. Default 1 MiB/s.
    public var bytesPerSecond: Int
    /// The byte rate's bucket: twice ``bytesPerSecond``, and at least one
    /// message of ``maxMessageBytes`` (which could never pass otherwise).
    public var byteBurst: Int { max(bytesPerSecond.multipliedReportingOverflow(by: 2).overflow ? .max : 2 * bytesPerSecond, maxMessageBytes) }
    /// Consecutive refused messages after which a rate-limited connection is
    /// closed with 1008 ("closed if it persists"). Default 100: a client that
    /// slows down on its first `rate_limited` is never closed.
    public var rateLimitedMessagesBeforeClose: Int
    /// How long without any received byte before the server pings; `nil`
    /// never pings. Default 30 s: below the 60 s idle cut of common proxies.
    public var pingInterval: Duration?
    /// How long without any received byte (pongs count) before the connection
    /// is closed; `nil` never. Default 90 s: three missed pings.
    public var idleTimeout: Duration?
    /// Which paths each role may read. Default: everything, for every role.
    public var readPermissions: ReadPermissions
    /// Which action types need a role above `writer`. Default: none, every
    /// role that may dispatch sends every action type.
    public var actionPermissions: ActionPermissions
    /// How long a client's path may be (`subscribe`, `get`, the HTTP API);
    /// longer ones are refused `invalid_path`. Default 32 tokens and 1 KiB, which
    /// also bounds the depth of the subscription index.
    public var pathLimits: JSONPointer.Limits
    /// How long ids, `clientId`s and names may be (longer: `bad_request`).
    /// Default 128 bytes and 64 characters (see ``IdentifierLimits``).
    public var identifierLimits: IdentifierLimits
    /// Bytes queued for one connection above which it stops being writable: the
    /// engine then coalesces its patches (a *slow consumer*) until it drains
    /// below a quarter of this. Default 1 MiB.
    public var outboundHighWaterMark: Int
    /// Bytes queued for one connection above which it is closed with 1008,
    /// whatever queued them. Default 8 MiB. The connection also stops reading
    /// while above ``outboundHighWaterMark``.
    public var maxOutboundBytes: Int
    /// The most pings a client may send in one second; one more closes with
    /// 1008, as a ping flood keeps a shared event loop busy. `nil`: no limit.
    /// Default 100.
    public var maxPingsPerSecond: Int?
    /// How long a WebSocket connection may stay open without a `hello` after the
    /// upgrade before it is closed with 1008. `nil` never. Default 10 s.
    public var helloTimeout: Duration?
    /// How often a quiet `GET /api/watch` event stream gets a comment line.
    /// Default 15 s: shorter than the idle timeouts of common proxies (30 to
    /// 60 s), and a few bytes a minute per stream.
    public var eventStreamHeartbeat: Duration

    /// A configuration; every argument has the default documented on its property.
    public init(
        maxMessageBytes: Int = 1 << 20,
        maxNestingDepth: Int = 64,
        maxSubscriptions: Int = 256,
        messagesPerSecond: Int = 200,
        burst: Int = 400,
        bytesPerSecond: Int = 1 << 20,
        rateLimitedMessagesBeforeClose: Int = 100,
        pingInterval: Duration? = .seconds(30),
        idleTimeout: Duration? = .seconds(90),
        readPermissions: ReadPermissions = ReadPermissions(),
        actionPermissions: ActionPermissions = ActionPermissions(),
        pathLimits: JSONPointer.Limits = JSONPointer.Limits(),
        identifierLimits: IdentifierLimits = IdentifierLimits(),
        outboundHighWaterMark: Int = 1 << 20,
        maxOutboundBytes: Int = 8 << 20,
        maxPingsPerSecond: Int? = 100,
        helloTimeout: Duration? = .seconds(10),
        eventStreamHeartbeat: Duration = .seconds(15)
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxNestingDepth = maxNestingDepth
        self.maxSubscriptions = maxSubscriptions
        self.messagesPerSecond = messagesPerSecond
        self.burst = burst
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.rateLimitedMessagesBeforeClose = rateLimitedMessagesBeforeClose
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
        self.readPermissions = readPermissions
        self.actionPermissions = actionPermissions
        self.pathLimits = pathLimits
        self.identifierLimits = identifierLimits
        self.outboundHighWaterMark = max(1, outboundHighWaterMark)
        self.maxOutboundBytes = max(1, maxOutboundBytes)
        self.maxPingsPerSecond = maxPingsPerSecond
        self.helloTimeout = helloTimeout
        self.eventStreamHeartbeat = max(.milliseconds(10), eventStreamHeartbeat)
    }
}
