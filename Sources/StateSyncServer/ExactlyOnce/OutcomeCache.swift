import DequeModule
import StateSyncJournal

/// Recent pairs' outcomes, a cache in front of the journal. An outcome stays
/// *pinned* until the journal has it (``sealed()``, ``durable()``), else a
/// lookup could miss it and apply the pair twice; so it may exceed its capacity.
struct OutcomeCache {
    private var outcomes: [OutcomeKey: JournalOutcome] = [:]
    /// Pairs in the order remembered, each with its decision number (0 for
    /// outcomes read from the journal, durable already).
    private var order: Deque<(key: OutcomeKey, decision: UInt64)> = []
    private let capacity: Int
    /// The number of the last decision remembered.
    private var lastDecision: UInt64 = 0
    /// Decisions up to this one are in the batch being written.
    private var sealedDecision: UInt64 = 0
    /// Decisions up to this one are durable (they may be forgotten).
    private var durableDecision: UInt64 = 0
    /// Whether a pair was ever dropped (then a miss may be in the journal).
    private(set) var hasForgotten: Bool

    /// A cache holding at most `capacity` durable pairs; `hasForgotten` when
    /// it replaces a cache whose pairs it does not hold.
    init(capacity: Int, hasForgotten: Bool = false) {
        self.capacity = Swift.max(1, capacity)
        self.hasForgotten = hasForgotten
    }

    /// The remembered outcome of `key`.
    subscript(key: OutcomeKey) -> JournalOutcome? {
        outcomes[key]
    }

    /// Remembers `outcome`, just decided, for `key` unless the pair already
    /// has one (the first outcome stays); it is pinned until durable.
    mutating func decided(_ outcome: JournalOutcome, for key: OutcomeKey) {
        guard outcomes[key] == nil else { return }
        lastDecision += 1
        insert(outcome, for: key, decision: lastDecision)
    }

    /// Remembers `outcome`, read from the journal, for `key`.
    mutating func found(_ outcome: JournalOutcome, for key: OutcomeKey) {
        guard outcomes[key] == nil else { return }
        insert(outcome, for: key, decision: 0)
    }

    /// Every decision so far is in the batch now handed to the journal.
    mutating func sealed() {
        sealedDecision = lastDecision
    }

    /// The batch handed to the journal last is durable: its outcomes may be
    /// forgotten now.
    mutating func durable() {
        durableDecision = sealedDecision
        trim()
    }

    private mutating func insert(_ outcome: JournalOutcome, for key: OutcomeKey, decision: UInt64) {
        outcomes[key] = outcome
        order.append((key, decision))
        trim()
    }

    private mutating func trim() {
        while order.count > capacity, let first = order.first, first.decision <= durableDecision {
            order.removeFirst()
            outcomes[first.key] = nil
            hasForgotten = true
        }
    }
}
