import Synchronization

/// How many devtools API requests the server answers at once; each holds a
/// rebuilt state and a core. Beyond it: `503` with `Retry-After: 1` at once.
/// The count is taken when a request's task starts (see ``DevtoolsRoutes``).
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
