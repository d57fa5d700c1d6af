/// What one soak run does. Every field has the default of the recorded run
/// (RELIABILITY.md "Soak"); `statesync-soak --help` lists the flags.
struct SoakConfiguration: Sendable {
    /// The `statesync` executable that is started as the server. Default:
    /// the one beside this executable (both are built by `swift build`).
    var statesync: String
    /// The server's data directory, kept across restarts. Default: a new
    /// directory under the system's temporary directory, removed at the end.
    var dataDirectory: String?
    /// Extra `statesync serve` arguments, after the driver's own (which
    /// raise the per-address connection and join limits to twice
    /// ``clients``). Default: none.
    var serveArguments: [String] = []
    /// Connections, all kinds together. Default 1,000: the figure.
    var clients = 1_000
    /// How many of the clients dispatch. Default 100: enough writers that
    /// every server life sees hundreds of acked actions and several in flight
    /// at each kill, while the state stays small.
    var writers = 100
    /// How many clients read slowly (a raw connection that stops reading
    /// between messages). Default 100: a tenth, so that the server always has
    /// slow consumers to coalesce for.
    var slowReaders = 100
    /// How long the load runs, in seconds. Default 600 (10 minutes).
    var duration: Double = 600
    /// Seconds between server SIGKILLs; each is followed by a restart on the
    /// same data directory and port. Default 60.
    var killEvery: Double = 60
    /// Mean seconds between one client's random disconnects. Default 60: about
    /// 17 disconnects a second across 1,000 clients, beside the restarts.
    var disconnectEvery: Double = 60
    /// Mean seconds between one writer's dispatches. Default 1: 100 actions/s
    /// with the default writers, well under the per-connection rate limit.
    var dispatchEvery: Double = 1
    /// A slow reader's pause after each message it reads, in seconds. Default
    /// 0.2: five messages a second, far fewer than the patches of `/counters`.
    var slowReadDelay: Double = 0.2
    /// How long, after the load, every client may take to converge. Default 120 s.
    var settleTimeout: Double = 120
}
