import Synchronization

/// The sequencer's queue: ``nextRound()`` takes every event posted from any
/// thread, so actions arriving together form one batch. At most one run exists
/// (decided under the lock); requests are bounded by `capacity` (``postRequest(_:)`` waits).
final class EngineInbox: Sendable {
    private struct Queue {
        var events: [EngineEvent] = []
        /// How many of ``events`` are sessions' requests.
        var requests = 0
        /// Callers waiting for room (``whenRoomForRequests(_:)``).
        var waiters: [@Sendable () -> Void] = []
        /// Whether ``finish()`` has refused later events.
        var finished = false
        /// Starts a run of the sequencer; `nil` until ``start(runs:)`` and after ``finish()``.
        var startRun: (@Sendable () -> Void)?
        /// Whether a run is going (or starting): it takes the queue until it is empty.
        var running = false
        /// Callers of ``finished()`` waiting for ``finish()``.
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private enum Posting {
        case posted(startRun: (@Sendable () -> Void)?)
        case full
        case stopped
    }

    private let queue = Mutex(Queue())
    private let capacity: Int
    private let whenFull: @Sendable () -> Void

    /// An inbox holding at most `capacity` requests of sessions (at least 1),
    /// calling `whenFull` each time a request finds it full and waits.
    init(capacity: Int = .max, whenFull: @escaping @Sendable () -> Void = {}) {
        self.capacity = max(1, capacity)
        self.whenFull = whenFull
    }

    /// Installs `startRun`, which starts one run of the sequencer (a task
    /// taking ``nextRound()`` until it is `nil`), and starts the first run
    /// at once: the sequencer's start-up is its first round.
    func start(runs startRun: @escaping @Sendable () -> Void) {
        let startNow = queue.withLock { queue in
            guard !queue.finished else { return false }
            queue.startRun = startRun
            queue.running = true
            return true
        }
        if startNow { startRun() }
    }

    /// Queues `event` and wakes the sequencer; `false` (and nothing queued)
    /// once the sequencer has stopped. A request posted here counts towards
    /// the bound but never waits.
    @discardableResult
    func post(_ event: EngineEvent) -> Bool {
        wake(queue.withLock { queue in append(event, to: &queue, bounded: false) })
    }

    /// Queues the request `event` once fewer than `capacity` requests are
    /// queued, waiting until then; `false` once the sequencer has stopped.
    func postRequest(_ event: EngineEvent) async -> Bool {
        while true {
            let posting = queue.withLock { queue in append(event, to: &queue, bounded: true) }
            guard case .full = posting else { return wake(posting) }
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                whenRoomForRequests { waiter.resume() }
            }
        }
    }

    /// For a request that found the queue full: calls `resume` once the queue may
    /// have room. `resume` runs on the thread that made the room and must only
    /// hand over to its caller's loop; the room is not reserved.
    func whenRoomForRequests(_ resume: @escaping @Sendable () -> Void) {
        whenFull()
        let roomNow = queue.withLock { queue in
            guard queue.requests >= capacity, !queue.finished else { return true }
            queue.waiters.append(resume)
            return false
        }
        if roomNow { resume() }
    }

    /// Queues the request `event` if there is room, without waiting: `nil` when
    /// the queue is full, else whether it was queued (`false` once stopped).
    func postRequestIfRoom(_ event: EngineEvent) -> Bool? {
        let posting = queue.withLock { queue in append(event, to: &queue, bounded: true) }
        if case .full = posting { return nil }
        return wake(posting)
    }

    private func append(_ event: EngineEvent, to queue: inout Queue, bounded: Bool) -> Posting {
        guard !queue.finished else { return .stopped }
        let isRequest = if case .request = event { true } else { false }
        if isRequest {
            if bounded, queue.requests >= capacity { return .full }
            queue.requests += 1
        }
        queue.events.append(event)
        guard !queue.running, let startRun = queue.startRun else { return .posted(startRun: nil) }
        queue.running = true
        return .posted(startRun: startRun)
    }

    private func wake(_ posting: Posting) -> Bool {
        guard case .posted(let startRun) = posting else { return false }
        startRun?()
        return true
    }

    /// Everything queued so far, in order, and the callers waiting for room
    /// go on; `nil` when nothing is queued, which ends the current run (the
    /// next event posted starts another).
    func nextRound() -> [EngineEvent]? {
        let taken: ([EngineEvent], [@Sendable () -> Void])? = queue.withLock { queue in
            guard !queue.events.isEmpty else {
                queue.running = false
                return nil
            }
            return takeAll(&queue)
        }
        guard let (events, waiters) = taken else { return nil }
        for resume in waiters { resume() }
        return events
    }

    private func takeAll(_ queue: inout Queue) -> ([EngineEvent], [@Sendable () -> Void]) {
        var events: [EngineEvent] = []
        var waiters: [@Sendable () -> Void] = []
        swap(&events, &queue.events)
        swap(&waiters, &queue.waiters)
        queue.requests = 0
        return (events, waiters)
    }

    /// Once the sequencer has stopped: refuses later events, wakes the
    /// callers of ``finished()``, and returns the events queued but never handled.
    func finish() -> [EngineEvent] {
        let (rest, waiters, finishWaiters) = queue.withLock { queue in
            queue.finished = true
            queue.startRun = nil
            let (rest, waiters) = takeAll(&queue)
            defer { queue.finishWaiters = [] }
            return (rest, waiters, queue.finishWaiters)
        }
        for resume in waiters { resume() }
        for waiter in finishWaiters { waiter.resume() }
        return rest
    }

    /// Returns once ``finish()`` has run (at once when it has).
    func finished() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = queue.withLock { queue in
                guard !queue.finished else { return true }
                queue.finishWaiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }
}
