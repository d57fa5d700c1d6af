import Synchronization

/// The sequencer's queue: callers on any thread ``post(_:)`` events; the
/// sequencer's task waits on ``signals`` and takes everything queued at once
/// with ``takeAll()``, so actions that arrive together form one batch.
final class EngineInbox: Sendable {
    private let queue = Mutex<[EngineEvent]>([])
    private let continuation: AsyncStream<Void>.Continuation
    /// Wakes the sequencer; holds at most one pending wake-up.
    let signals: AsyncStream<Void>

    init() {
        (signals, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `event` and wakes the sequencer.
    func post(_ event: EngineEvent) {
        let wasEmpty = queue.withLock { queue in
            queue.append(event)
            return queue.count == 1
        }
        if wasEmpty { continuation.yield() }
    }

    /// Everything queued so far, in order.
    func takeAll() -> [EngineEvent] {
        queue.withLock { queue in
            var events: [EngineEvent] = []
            swap(&events, &queue)
            return events
        }
    }

    /// Ends ``signals`` once the sequencer has stopped.
    func finish() {
        continuation.finish()
    }
}
