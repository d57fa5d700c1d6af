/// An ``EffectRunner``'s book of running effect tasks (kept inside its lock). A
/// task is entered (``reserve(id:)``) before it starts, so one that finishes
/// very quickly leaves no stale entry.
struct EffectRegistry {
    /// One running effect.
    private struct Entry {
        var id: EffectID?
        var task: Task<Void, Never>?
    }

    private var entries: [UInt64: Entry] = [:]
    private var nextKey: UInt64 = 0
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set by ``EffectRunner/shutdown()``: no effect starts any more.
    var isShutDown = false

    /// The number of effects still running.
    var count: Int { entries.count }

    /// Enters an effect about to start; returns its key.
    mutating func reserve(id: EffectID?) -> UInt64 {
        nextKey += 1
        entries[nextKey] = Entry(id: id, task: nil)
        return nextKey
    }

    /// Records the task of the effect `key`; returns `false` when it already finished.
    mutating func attach(_ task: Task<Void, Never>, to key: UInt64) -> Bool {
        guard entries[key] != nil else { return false }
        entries[key]?.task = task
        return true
    }

    /// Forgets a finished effect; returns the waiters to resume when none is left.
    mutating func finish(_ key: UInt64) -> [CheckedContinuation<Void, Never>] {
        entries[key] = nil
        guard entries.isEmpty else { return [] }
        defer { idleWaiters = [] }
        return idleWaiters
    }

    /// Removes the effects named `id` and returns their tasks to cancel.
    mutating func remove(id: EffectID) -> [Task<Void, Never>] {
        let keys = entries.filter { $0.value.id == id }.map(\.key)
        return keys.compactMap { entries.removeValue(forKey: $0)?.task }
    }

    /// Removes every effect and returns their tasks to cancel.
    mutating func removeAll() -> (tasks: [Task<Void, Never>], waiters: [CheckedContinuation<Void, Never>]) {
        let tasks = entries.values.compactMap(\.task)
        entries = [:]
        defer { idleWaiters = [] }
        return (tasks, idleWaiters)
    }

    /// Registers a waiter for the moment no effect runs; returns `false` (not
    /// registered) when none runs already.
    mutating func waitForIdle(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        guard !entries.isEmpty else { return false }
        idleWaiters.append(waiter)
        return true
    }
}
