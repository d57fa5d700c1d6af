import DequeModule
import StateSyncCore

/// The JSON states of the last few durable revisions, so that a resuming
/// subscriber (`subscribe … since`) or a slow consumer that drained gets a
/// patch from the revision it has instead of a whole snapshot.
///
/// Consecutive states share the storage of everything that did not change,
/// so a window of K revisions costs about K changes, not K states.
struct HistoryWindow {
    private var states: Deque<JSONValue> = []
    /// The revision of `states.first`.
    private var firstRevision: UInt64 = 0
    private let capacity: Int

    /// A window keeping at most `capacity` revisions, starting with `state` at `revision`.
    init(capacity: Int, revision: UInt64, state: JSONValue) {
        self.capacity = Swift.max(1, capacity)
        states.append(state)
        firstRevision = revision
    }

    /// The newest revision held.
    var lastRevision: UInt64 { firstRevision + UInt64(states.count) - 1 }

    /// Records `state` as the next revision (`lastRevision + 1`), dropping the oldest beyond capacity.
    mutating func append(_ state: JSONValue) {
        states.append(state)
        if states.count > capacity {
            states.removeFirst()
            firstRevision += 1
        }
    }

    /// The state at `revision`, or `nil` when it is outside the window.
    func state(at revision: UInt64) -> JSONValue? {
        guard revision >= firstRevision, revision <= lastRevision else { return nil }
        return states[Int(revision - firstRevision)]
    }
}
