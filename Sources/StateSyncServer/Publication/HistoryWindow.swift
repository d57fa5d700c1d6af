import CoreMetrics
import Logging
import DequeModule
import StateSyncCore

/// The JSON states of recent published revisions, so that a resuming
/// subscriber (`subscribe … since`) or a slow consumer that drained gets a
/// patch from the revision it has instead of a whole snapshot.
///
/// It keeps the state at the end of each published batch: the only
/// revisions a subscription can have seen (snapshots, patches and their
/// `rev` are always at a batch's end). A `since` between two of them gets
/// a snapshot, as one outside the window does.
///
/// Consecutive states share the storage of everything that did not change,
/// so a revision costs about what its change copied: the members of the
/// containers on the changed path (a presence entry added among 10,000
/// copies a 10,000-member object). The window holds at most `capacity`
/// revisions and, beyond the newest, at most `costBudget` of such copied
/// members, dropping the oldest first.
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
