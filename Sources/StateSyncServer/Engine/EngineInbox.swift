import Synchronization

/// The sequencer's queue: callers on any thread ``post(_:)`` events; the
/// sequencer's task waits on ``signals`` and takes everything queued at once
/// with ``takeAll()``, so actions that arrive together form one batch.
final class EngineInbox: Sendable {
    private let queue = Mutex<[EngineEvent]>([])
    /// Set by ``finish()``: later events are refused.
    private let finished = Atomic<Bool>(false)
    private let continuation: AsyncStream<Void>.Continuation
    /// Wakes the sequencer; holds at most one pending wake-up.
    let signals: AsyncStream<Void>

    init() {
        (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `event` and wakes the sequencer; `false` (and nothing queued)
    /// once the sequencer has stopped.
    @discardableResult
    func post(_ event: EngineEvent) -> Bool {
        let wasEmpty: Bool? = queue.withLock { queue in
            guard !finished.load(ordering: .acquiring) else { return nil }
            queue.append(event)
            return queue.count == 1
        }
        guard let wasEmpty else { return false }
        if wasEmpty { continuation.yield() }
        return true
    }

    /// Everything queued so far, in order.
    func takeAll() -> [EngineEvent] {
        queue.withLock { takeAll(&$0) }
    }

    private func takeAll(_ queue: inout [EngineEvent]) -> [EngineEvent] {
        var events: [EngineEvent] = []
        swap(&events, &queue)
        return events
    }

    /// Ends ``signals`` once the sequencer has stopped, refuses later
    /// events, and returns those queued but never handled.
    func finish() -> [EngineEvent] {
        let rest = queue.withLock { queue in
            finished.store(true, ordering: .releasing)
            return takeAll(&queue)
        }
        continuation.finish()
        return rest
    }
}
