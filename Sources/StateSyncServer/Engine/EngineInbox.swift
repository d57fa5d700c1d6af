import Synchronization

/// The sequencer's queue: callers on any thread ``post(_:)`` events; the
/// sequencer's task waits on ``signals`` and takes everything queued at once
/// with ``takeAll()``, so actions that arrive together form one batch.
///
/// Sessions' requests are bounded: ``postRequest(_:)`` waits while
/// `capacity` of them are queued, until the sequencer takes them. A session
/// that waits for room (``whenRoomForRequests(_:)``) before handling its
/// next message stops reading its socket while the engine is behind,
/// instead of growing this queue. The engine's
/// own events (joins, leaves, drains, journal completions) are not bounded
/// here: each comes from a bounded source (a connection, the batch in flight).
final class EngineInbox: Sendable {
    private struct Queue {
        var events: [EngineEvent] = []
        /// How many of ``events`` are sessions' requests.
        var requests = 0
        /// Callers waiting for room (``whenRoomForRequests(_:)``).
        var waiters: [@Sendable () -> Void] = []
        /// Whether ``finish()`` has refused later events.
        var finished = false
    }

    private enum Posting {
        case posted(wasEmpty: Bool)
        case full
        case stopped
    }

    private let queue = Mutex(Queue())
    private let continuation: AsyncStream<Void>.Continuation
    private let capacity: Int
    private let whenFull: @Sendable () -> Void
    /// Wakes the sequencer; holds at most one pending wake-up.
    let signals: AsyncStream<Void>

    /// An inbox holding at most `capacity` requests of sessions (at least 1),
    /// calling `whenFull` each time a request finds it full and waits.
    init(capacity: Int = .max, whenFull: @escaping @Sendable () -> Void = {}) {
        self.capacity = max(1, capacity)
        self.whenFull = whenFull
        (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
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

    /// For a request that found the queue full (counted with `whenFull`):
    /// calls `resume` once the queue may have room again (the sequencer
    /// took the queued ones, or stopped), at once if it has room now.
    /// `resume` runs on the thread that made the room: it must only hand
    /// over to its caller's loop. The room is not reserved: try the request
    /// again, and wait again if others took it.
    func whenRoomForRequests(_ resume: @escaping @Sendable () -> Void) {
        whenFull()
        let roomNow = queue.withLock { queue in
            guard queue.requests >= capacity, !queue.finished else { return true }
            queue.waiters.append(resume)
            return false
        }
        if roomNow { resume() }
    }

    /// Queues the request `event` when fewer than `capacity` requests are
    /// queued, without waiting: `nil` when the queue is full (then
    /// ``postRequest(_:)`` waits for room), else whether it was queued
    /// (`false` once the sequencer has stopped).
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
        return .posted(wasEmpty: queue.events.count == 1)
    }

    private func wake(_ posting: Posting) -> Bool {
        guard case .posted(let wasEmpty) = posting else { return false }
        if wasEmpty { continuation.yield() }
        return true
    }

    /// Everything queued so far, in order; the callers waiting for room go on.
    func takeAll() -> [EngineEvent] {
        let (events, waiters) = queue.withLock { takeAll(&$0) }
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

    /// Ends ``signals`` once the sequencer has stopped, refuses later
    /// events, and returns those queued but never handled.
    func finish() -> [EngineEvent] {
        let (rest, waiters) = queue.withLock { queue in
            queue.finished = true
            return takeAll(&queue)
        }
        for resume in waiters { resume() }
        continuation.finish()
        return rest
    }
}
