import Synchronization

/// Counts shared by every client of a run, and the problems they noted.
final class SoakTally: Sendable {
    /// What the counters hold at one moment.
    struct Counts: Sendable {
        /// Dispatches acknowledged by the server.
        var acked = 0
        /// Dispatches refused by the server (none is expected).
        var rejected = 0
        /// Random disconnects the clients made.
        var disconnects = 0
        /// Slow readers' connections, first ones included.
        var slowConnections = 0
        /// Patches a slow reader received whose `base` was not its revision.
        var gaps = 0
    }

    private let counts = Mutex(Counts())
    private let problemLog = Mutex<(count: Int, first: [String])>((0, []))

    /// The counters now.
    var current: Counts { counts.withLock { $0 } }

    /// Changes the counters.
    func update(_ change: (inout Counts) -> Void) {
        counts.withLock { change(&$0) }
    }

    /// Notes a problem: all are counted, the first 20 kept to be shown.
    func problem(_ text: String) {
        problemLog.withLock { log in
            log.count += 1
            if log.first.count < 20 { log.first.append(text) }
        }
    }

    /// How many problems were noted, and the first 20, oldest first.
    var problems: (count: Int, first: [String]) { problemLog.withLock { $0 } }
}
