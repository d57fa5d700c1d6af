import Synchronization

/// The sequencer's queue: callers on any thread ``post(_:)`` events; the
/// sequencer's task waits on ``signals`` and takes everything queued at once
/// with ``takeAll()``, so actions that arrive together form one batch.
final class EngineInbox: Sendable {
    /// The events not yet taken, and whether ``finish()`` has refused later ones.
    private let queue = Mutex<(events: [EngineEvent], finished: Bool)>(([], false))
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
            guard !queue.finished else { return nil }
            queue.events.append(event)
            return queue.events.count == 1
        }
        guard let wasEmpty else { return false }
        if wasEmpty { continuation.yield() }
        return true
    }

    /// Everything queued so far, in order.
    func takeAll() -> [EngineEvent] {
        queue.withLock { takeAll(&$0.events) }
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
            queue.finished = true
            return takeAll(&queue.events)
        }
        continuation.finish()
        return rest
    }
}
