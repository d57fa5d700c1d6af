import CoreMetrics
import Logging
import DequeModule
import StateSyncCore

/// Recent published states (batch ends only), so a resuming subscriber or a
/// drained slow consumer gets a patch, not a snapshot. Bounded by `capacity`
/// revisions and a `costBudget` of copied members; oldest dropped first.
struct HistoryWindow {
    private struct Entry {
        var revision: UInt64
        var state: JSONValue
        var cost: Int
    }

    private var entries: Deque<Entry> = []
    private var totalCost = 0
    private let capacity: Int
    private let costBudget: Int

    /// A window of at most `capacity` revisions and `costBudget` copied
    /// members, starting with `state` at `revision`.
    init(capacity: Int, costBudget: Int, revision: UInt64, state: JSONValue) {
        self.capacity = Swift.max(1, capacity)
        self.costBudget = Swift.max(0, costBudget)
        entries.append(Entry(revision: revision, state: state, cost: 0))
    }

    /// The newest revision held.
    var lastRevision: UInt64 { entries.last?.revision ?? 0 }

    /// Revisions held (for tests).
    var count: Int { entries.count }

    /// Records `state` at `revision` (after ``lastRevision``); `cost` is what
    /// its change copied. Drops the oldest revisions beyond the limits (never the newest).
    mutating func append(_ state: JSONValue, at revision: UInt64, cost: Int) {
        entries.append(Entry(revision: revision, state: state, cost: cost))
        totalCost += cost
        while entries.count > 1, entries.count > capacity || totalCost > costBudget {
            totalCost -= entries.removeFirst().cost
        }
    }

    /// The state at `revision`, or `nil` when the window does not hold it.
    func state(at revision: UInt64) -> JSONValue? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].revision < revision { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].revision == revision else { return nil }
        return entries[low].state
    }
}
