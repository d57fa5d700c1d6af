import NIOCore

/// Something with one timer in an ``EventLoopTimers``: a connection's
/// handler, whose keepalive, idle and close deadlines come one at a time.
protocol EventLoopTimerOwner: AnyObject {
    /// Where the owner's timer is in the heap, `nil` when none is armed.
    /// The timers set it; the owner only keeps it.
    var timerSlot: Int? { get set }
    /// The owner's timer is due (it is no longer armed).
    func timerDue()
}

/// The timers of all connections of one event loop: a heap of deadlines with one NIO scheduled task at the
/// earliest, so arming a timer allocates nothing. Owners arm and disarm only on the loop and must disarm before
/// they go away (the heap does not retain them); loop confinement is why it is `@unchecked Sendable`.
final class EventLoopTimers: @unchecked Sendable {
    private struct Entry {
        var deadline: NIODeadline
        unowned(unsafe) var owner: any EventLoopTimerOwner
    }

    private weak var eventLoop: (any EventLoop)?
    private var heap: [Entry] = []
    /// The NIO task that runs ``fire()`` and the deadline it was scheduled for.
    private var wakeUp: (task: Scheduled<Void>, deadline: NIODeadline)?

    private init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The timers of every loop in use.
    private static let instances = PerEventLoop { EventLoopTimers(eventLoop: $0) }

    /// The timers of `eventLoop` (made on first use).
    static func on(_ eventLoop: any EventLoop) -> EventLoopTimers {
        instances.on(eventLoop)
    }

    /// How many timers are armed (for tests).
    var count: Int { heap.count }

    /// Arms `owner`'s timer at `deadline` in place of the one it had; `nil`
    /// disarms it.
    func arm(_ owner: any EventLoopTimerOwner, at deadline: NIODeadline?) {
        eventLoop?.assertInEventLoop()
        if let slot = owner.timerSlot { remove(at: slot) }
        guard let deadline else { return }
        heap.append(Entry(deadline: deadline, owner: owner))
        owner.timerSlot = heap.count - 1
        siftUp(heap.count - 1)
        scheduleWakeUp()
    }

    /// Runs every timer due, then waits for the next.
    private func fire() {
        wakeUp = nil
        guard let now = eventLoop?.now else { return }
        // Taken out first, with a strong reference each: a due owner may arm again (for later).
        var due: [any EventLoopTimerOwner] = []
        while let first = heap.first, first.deadline <= now {
            let owner: any EventLoopTimerOwner = first.owner
            remove(at: 0)
            due.append(owner)
        }
        for owner in due { owner.timerDue() }
        scheduleWakeUp()
    }

    /// Keeps NIO's task at the earliest deadline: moved only when an
    /// earlier one arrives (a later first deadline finds it early, and it
    /// re-arms itself), cancelled when no timer is left.
    private func scheduleWakeUp() {
        guard let first = heap.first, let eventLoop else {
            wakeUp?.task.cancel()
            wakeUp = nil
            return
        }
        if let wakeUp, wakeUp.deadline <= first.deadline { return }
        wakeUp?.task.cancel()
        let timers = NIOLoopBound(self, eventLoop: eventLoop)
        let task = eventLoop.scheduleTask(deadline: first.deadline) { timers.value.fire() }
        wakeUp = (task, first.deadline)
    }

    private func remove(at slot: Int) {
        heap[slot].owner.timerSlot = nil
        let last = heap.count - 1
        if slot != last {
            heap.swapAt(slot, last)
            heap[slot].owner.timerSlot = slot
        }
        heap.removeLast()
        guard slot < heap.count else { return }
        siftDown(slot)
        siftUp(slot)
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            swap(child, parent)
            child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            let right = left + 1
            let child = right < heap.count && heap[right].deadline < heap[left].deadline ? right : left
            guard heap[child].deadline < heap[parent].deadline else { return }
            swap(child, parent)
            parent = child
        }
    }

    private func swap(_ first: Int, _ second: Int) {
        heap.swapAt(first, second)
        heap[first].owner.timerSlot = first
        heap[second].owner.timerSlot = second
    }
}
