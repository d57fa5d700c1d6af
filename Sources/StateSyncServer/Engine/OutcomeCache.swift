import DequeModule

/// The outcomes of the most recent `(clientId, actionId)` pairs, oldest
/// forgotten first; older pairs are looked up in the journal.
struct OutcomeCache {
    private var outcomes: [OutcomeKey: JournalOutcome] = [:]
    private var order: Deque<OutcomeKey> = []
    private let capacity: Int

    /// A cache holding at most `capacity` pairs.
    init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
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
        }
    }
}
