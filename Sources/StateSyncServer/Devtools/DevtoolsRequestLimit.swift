import Synchronization

/// How many devtools API requests (`/devtools/api/*`) the server answers at
/// once, server-wide. Time travel rebuilds a state (the nearest snapshot
/// parsed, then up to a snapshot interval of actions replayed) and a journal
/// page replays up to 500 actions for their patches: each request in flight
/// holds a rebuilt state and a core. A request beyond the limit is answered
/// at once with `503` and `Retry-After: 1`, and costs nothing more. The
/// count is taken when a request's task starts, not when it arrives: see
/// the yield in ``DevtoolsRoutes``.
final class DevtoolsRequestLimit: Sendable {
    /// The most requests in flight at once.
    let maximum: Int
    private let inFlight = Atomic<Int>(0)

    /// A limit of `maximum` requests in flight (at least 1).
    init(maximum: Int) {
        self.maximum = Swift.max(1, maximum)
    }

    /// Takes a place for one request; `false` when all are taken (the
    /// request must then be refused). A `true` must be matched by ``release()``.
    func acquire() -> Bool {
        var current = inFlight.load(ordering: .relaxed)
        while current < maximum {
            let (exchanged, original) = inFlight.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back the place of a request that is answered.
    func release() {
        inFlight.subtract(1, ordering: .releasing)
    }
}
