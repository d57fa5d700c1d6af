import StateSyncProtocol

/// What a load run does: how many clients, what they subscribe to, who
/// writes what and how fast, for how long.
///
/// Every field has a default; `LoadScenario()` is 100 clients subscribed to
/// `/counters`, one of which increments `hits` 10 times a second for 10 s.
///
/// ```swift
/// var scenario = LoadScenario(url: "ws://127.0.0.1:8080/sync")
/// scenario.clients = 10_000
/// scenario.subscriptions = [Template("/counters/c{i}")]
/// scenario.writers = 10
/// scenario.rate = 1_000
/// scenario.action = try ActionTemplate(#"{"type":"increment","counter":"c{n}","by":1}"#)
/// ```
public struct LoadScenario: Sendable {
    /// The servers' sync endpoints (one, or a cluster's nodes); client *i* connects
    /// to `urls[i % urls.count]`. Default `["ws://127.0.0.1:8080/sync"]`.
    public var urls: [String]

    /// The first of ``urls``; setting it makes it the only one.
    public var url: String {
        get { urls.first ?? "" }
        set { urls = [newValue] }
    }
    /// The token sent in `hello`; default `nil` (a server without authentication).
    public var token: String?
    /// Connections opened (writers included). Default 100.
    public var clients: Int
    /// The paths every client subscribes to (`{i}` is its index). Default
    /// `["/counters"]`: every client hears every increment (a broadcast).
    public var subscriptions: [Template]
    /// How many of the clients also dispatch. Default 1.
    public var writers: Int
    /// Actions per second, all writers together (spread evenly, sent on a
    /// schedule whatever the answers: an open-loop load). Default 10.
    public var rate: Double
    /// How long writers dispatch, after every client is connected and
    /// subscribed. Default 10 s.
    public var duration: Duration
    /// What writers dispatch. Default the board's increment of `hits`.
    public var action: ActionTemplate
    /// Handshakes in flight at once during the ramp-up. Default 256: enough
    /// to keep a server's accept loop busy without a burst of SYNs that
    /// overflows its backlog.
    public var connectConcurrency: Int
    /// Event-loop threads of the load generator. Default: one per core.
    public var threads: Int
    /// How long, after the last dispatch, to wait for outstanding answers and
    /// deliveries before counting what is missing. Default 10 s.
    public var drainTimeout: Duration
    /// Unanswered actions one writer may have; above it the writer skips its
    /// slot (counted as `skipped`). Default 10,000: bounds the generator's
    /// memory when the server stops answering.
    public var maxOutstandingPerWriter: Int
    /// Prefix of every client's `clientId` and name; default `bench`.
    public var clientPrefix: String
    /// Ends every client's `clientId`; random per scenario, so that exactly-once
    /// does not take a second run against the same server for the first resending.
    public var runID = String(UInt32.random(in: .min ... .max), radix: 16)
    /// Stores the clients are spread over: 0 (the default) puts every client
    /// in `main`; N puts client *i* (writers included) in the store
    /// `bench-(i % N)`, whose revisions, deliveries and gaps are its own.
    public var stores: Int = 0
    /// Local addresses the clients connect from, in turn; empty (the default): the
    /// system chooses. ``spreadOverLoopback()`` fills it in when one address lacks ports.
    public var sourceAddresses: [String] = []
    /// Connections started per second at most during the ramp-up (besides
    /// ``connectConcurrency``). Default 20,000: twice the connect rate a
    /// server is expected to sustain, so that a run measures the server.
    public var connectRate: Double = 20_000
    /// When, into the measured run, every connection is dropped without a close handshake
    /// and every client reconnects with its `clientId`, resumes with `since` and resends
    /// unanswered dispatches. `nil` (the default): no storm. See ``LoadResult/ReconnectStorm``.
    public var reconnectStormAt: Duration? = nil

    /// A scenario; every argument has the default documented on its property.
    public init(
        url: String = "ws://127.0.0.1:8080/sync",
        token: String? = nil,
        clients: Int = 100,
        subscriptions: [Template] = [Template("/counters")],
        writers: Int = 1,
        rate: Double = 10,
        duration: Duration = .seconds(10),
        action: ActionTemplate = .incrementHits,
        connectConcurrency: Int = 256,
        threads: Int = LoadScenario.coreCount,
        drainTimeout: Duration = .seconds(10),
        maxOutstandingPerWriter: Int = 10_000,
        clientPrefix: String = "bench"
    ) {
        self.urls = [url]
        self.token = token
        self.clients = clients
        self.subscriptions = subscriptions
        self.writers = writers
        self.rate = rate
        self.duration = duration
        self.action = action
        self.connectConcurrency = connectConcurrency
        self.threads = threads
        self.drainTimeout = drainTimeout
        self.maxOutstandingPerWriter = maxOutstandingPerWriter
        self.clientPrefix = clientPrefix
    }

    /// The number of cores (the default of ``threads``).
    public static var coreCount: Int { ProcessResources.coreCount }

    /// Throws what is inconsistent (no URL, no clients, more writers than clients, a bad path).
    public func validate() throws(LoadScenarioError) {
        guard !urls.isEmpty else { throw .invalidValue("urls", "[]", reason: "at least one server URL is needed") }
        guard clients >= 1 else { throw .invalidValue("clients", "\(clients)", reason: "at least 1 client is needed") }
        guard (0...clients).contains(writers) else {
            throw .invalidValue("writers", "\(writers)", reason: "must be from 0 to the number of clients (\(clients))")
        }
        guard rate >= 0, rate.isFinite else { throw .invalidValue("rate", "\(rate)", reason: "must be 0 or more actions per second") }
        guard writers > 0 || rate == 0 else { throw .invalidValue("rate", "\(rate)", reason: "actions need at least one writer") }
        guard duration > .zero else { throw .invalidValue("duration", "\(duration)", reason: "must be positive") }
        guard connectConcurrency >= 1 else {
            throw .invalidValue("connect-concurrency", "\(connectConcurrency)", reason: "must be at least 1")
        }
        guard threads >= 1 else { throw .invalidValue("threads", "\(threads)", reason: "must be at least 1") }
        guard stores >= 0 else { throw .invalidValue("stores", "\(stores)", reason: "must be 0 (main only) or more stores") }
        try validateConnecting()
        if let at = reconnectStormAt, at < .zero || at >= duration {
            throw .invalidValue("reconnect-storm", "\(at)", reason: "must be from 0 to less than the run's duration (\(duration))")
        }
        for subscription in subscriptions {
            try PathCheck.validate(subscription)
        }
    }

    /// How many stores the clients are in: 1 (`main`) or ``stores``.
    var storeCount: Int { max(1, stores) }

    /// The index (below ``storeCount``) of the store client `index` is in.
    func storeIndex(ofClient index: Int) -> Int {
        stores > 0 ? index % stores : 0
    }

    /// The name of the store numbered `number`: `main`, or `bench-NUMBER`.
    func storeName(_ number: Int) -> StoreName {
        // Valid by construction: a letter first, then digits and a dash.
        stores > 0 ? (try? StoreName("bench-\(number)")) ?? .main : .main
    }
}
