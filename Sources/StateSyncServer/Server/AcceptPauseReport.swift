import Logging
import Metrics
import NIOCore
import Synchronization
import WebSocket
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports when the listener paused accepting for lack of descriptors (or
/// memory): a warning naming the limit to raise, at most once every ten
/// seconds, and `statesync_accepts_paused_total`.
final class AcceptPauseReport: Sendable {
    private let logger: Logger
    private let counter: Counter
    private let interval: Duration
    /// When the last warning was logged, and the pauses since.
    private let state = Mutex<(lastLogged: ContinuousClock.Instant?, unlogged: Int)>((nil, 0))

    init(logger: Logger, counter: Counter, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.counter = counter
        self.interval = interval
    }

    /// One pause, for `error`.
    func paused(_ error: IOError, now: ContinuousClock.Instant = .now) {
        counter.increment()
        let pauses: Int? = state.withLock { state in
            state.unlogged += 1
            if let last = state.lastLogged, last.duration(to: now) < interval { return nil }
            defer { state = (now, 0) }
            return state.unlogged
        }
        guard let pauses else { return }
        logger.warning("accepting paused: \(Self.reason(error.errnoCode)); new connections wait in the listen backlog", metadata: [
            "errno": "\(error.errnoCode)", "pauses": "\(pauses)",
        ])
    }

    /// What ran out, and what to raise.
    static func reason(_ code: Int32) -> String {
        switch code {
        case EMFILE:
            "this process is out of file descriptors (its open-file limit, ulimit -n, is \(OpenFileLimit.current.map(String.init) ?? "unknown")): raise it or lower --max-connections"
        case ENFILE:
            "the system is out of file descriptors (fs.file-max)"
        default:
            "out of memory for sockets (errno \(code))"
        }
    }
}
