import DequeModule
import Foundation
import StateSyncJournal

/// The clientIds whose outcomes are remembered, with their last dispatch time:
/// admits or refuses dispatches, picks whom to forget, and schedules journal
/// trims (``OutcomeRetention``). Activity order is a deque, O(1) amortized.
struct ClientTable {
    /// What becomes of a dispatch of a clientId.
    enum Admission: Equatable {
        /// Its outcomes are remembered; `forgetting` is the clientId that
        /// made room for it (all of whose outcomes the journal must drop).
        case admitted(forgetting: String?)
        /// The table is full of clientIds active within the window.
        case refused(message: String)
    }

    private struct Record {
        var lastActive: Date
        /// Outcomes decided since the journal last trimmed this clientId.
        var sinceTrim: Int
    }

    private let retention: OutcomeRetention
    private var records: [String: Record] = [:]
    private var marks: Deque<(clientID: String, at: Date)> = []

    /// The clientIds the journal remembers, least recently active first, each
    /// active at `now`. Those beyond ``OutcomeRetention/maxClients`` go to
    /// ``restoredBeyondCapacity`` for the journal to forget.
    init(retention: OutcomeRetention, restored: [String], now: Date) {
        self.retention = retention
        for clientID in restored.suffix(retention.maxClients) {
            records[clientID] = Record(lastActive: now, sinceTrim: 0)
            marks.append((clientID, now))
        }
        restoredBeyondCapacity = Array(restored.dropLast(retention.maxClients))
    }

    /// Restored clientIds that did not fit (see ``init(retention:restored:now:)``).
    private(set) var restoredBeyondCapacity: [String]

    /// How many clientIds are tracked.
    var count: Int { records.count }

    /// Whether `clientID` is tracked.
    func contains(_ clientID: String) -> Bool { records[clientID] != nil }

    /// Admits a dispatch of `clientID` at `now`, making room when it is new
    /// and the table is full (see ``Admission``).
    mutating func admit(_ clientID: String, now: Date) -> Admission {
        if records[clientID] != nil || records.count < retention.maxClients {
            return .admitted(forgetting: nil)
        }
        guard let (oldest, lastActive) = leastRecentlyActive(),
              now.timeIntervalSince(lastActive) > retention.window.seconds
        else {
            return .refused(message: """
                the server remembers the outcomes of \(retention.maxClients) clientIds and all of them dispatched \
                within the last \(Int(retention.window.seconds)) s; retry later, or dispatch without a clientId
                """)
        }
        records[oldest] = nil
        marks.removeFirst()
        return .admitted(forgetting: oldest)
    }

    /// Records that `clientID` (admitted) had an outcome decided at `now`;
    /// returns whether the journal should now trim its outcomes to its last
    /// ``OutcomeRetention/perClient`` (once every that many decisions).
    mutating func decided(for clientID: String, now: Date) -> Bool {
        var record = records[clientID] ?? Record(lastActive: now, sinceTrim: 0)
        record.lastActive = now
        record.sinceTrim += 1
        let trim = record.sinceTrim >= retention.perClient
        if trim { record.sinceTrim = 0 }
        records[clientID] = record
        if marks.last?.clientID == clientID {
            marks[marks.count - 1].at = now
        } else {
            marks.append((clientID, now))
            if marks.count > 2 * records.count + 64 { dropStaleMarks() }
        }
        return trim
    }

    /// The least recently active clientId and when, after dropping stale
    /// marks from the front.
    private mutating func leastRecentlyActive() -> (String, Date)? {
        while let first = marks.first {
            if let record = records[first.clientID], record.lastActive == first.at { return (first.clientID, first.at) }
            marks.removeFirst()
        }
        return nil
    }

    /// Keeps only each clientId's latest mark.
    private mutating func dropStaleMarks() {
        var seen: Set<String> = []
        var kept: Deque<(clientID: String, at: Date)> = []
        for mark in marks.reversed() where seen.insert(mark.clientID).inserted && records[mark.clientID]?.lastActive == mark.at {
            kept.prepend(mark)
        }
        marks = kept
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
