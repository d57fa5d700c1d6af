/// Subscriptions resuming from a revision this node has not published yet (a
/// failover from a node ahead): each waits for `since`, or gets `behind` at its
/// deadline, so a client never sees an older state. Bounded by the engine's queue.
struct CatchUpHolds {
    /// A `subscribe … since` waiting for `since` to be published.
    struct Held {
        let sessionID: String
        let request: SessionRequest
        let received: ContinuousClock.Instant
        let since: UInt64
        let deadline: ContinuousClock.Instant
    }

    private var held: [Held] = []

    /// Whether a wake-up for the earliest deadline is pending (one at a time).
    var wakeUpPending = false

    /// The earliest deadline of a held request, `nil` when none waits.
    var earliestDeadline: ContinuousClock.Instant? { held.map(\.deadline).min() }

    /// Keeps `request` until `since` is published or `deadline` passes.
    mutating func hold(_ request: SessionRequest, since: UInt64, from sessionID: String,
                       received: ContinuousClock.Instant, deadline: ContinuousClock.Instant) {
        held.append(Held(sessionID: sessionID, request: request, received: received, since: since, deadline: deadline))
    }

    /// The requests whose `since` is now published (to carry out), and those
    /// whose deadline passed first (to answer `behind`), in arrival order.
    mutating func release(published: UInt64, now: ContinuousClock.Instant) -> (ready: [Held], expired: [Held]) {
        guard !held.isEmpty else { return ([], []) }
        var ready: [Held] = []
        var expired: [Held] = []
        var kept: [Held] = []
        for request in held {
            if request.since <= published {
                ready.append(request)
            } else if request.deadline <= now {
                expired.append(request)
            } else {
                kept.append(request)
            }
        }
        held = kept
        return (ready, expired)
    }

    /// Forgets `sessionID`'s requests (it left).
    mutating func left(_ sessionID: String) {
        held.removeAll { $0.sessionID == sessionID }
    }
}
