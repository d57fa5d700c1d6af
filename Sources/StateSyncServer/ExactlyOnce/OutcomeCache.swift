import DequeModule

/// The outcomes of the most recent `(clientId, actionId)` pairs, oldest
/// forgotten first; older pairs are looked up in the journal.
struct OutcomeCache {
    private var outcomes: [OutcomeKey: JournalOutcome] = [:]
    private var order: Deque<OutcomeKey> = []
    private let capacity: Int
    /// Whether a pair was ever dropped (then a miss may be in the journal).
    private(set) var hasForgotten: Bool

    /// A cache holding at most `capacity` pairs; `hasForgotten` when it
    /// replaces a cache whose pairs it does not hold.
    init(capacity: Int, hasForgotten: Bool = false) {
        self.capacity = Swift.max(1, capacity)
        self.hasForgotten = hasForgotten
    }

    /// The remembered outcome of `key`.
    subscript(key: OutcomeKey) -> JournalOutcome? {
        outcomes[key]
    }

    /// Remembers `outcome` for `key` unless the pair already has one (the first outcome stays).
    mutating func remember(_ outcome: JournalOutcome, for key: OutcomeKey) {
        guard outcomes[key] == nil else { return }
        outcomes[key] = outcome
        order.append(key)
        if order.count > capacity {
            outcomes[order.removeFirst()] = nil
            hasForgotten = true
        }
    }
}
