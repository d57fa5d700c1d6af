import StateSyncCore

/// The exactly-once rule of `(clientId, id)` pairs: a repeated pair gets
/// the outcome of its first dispatch and is never applied again.
///
/// Outcomes decided in this run are kept in a bounded ``OutcomeCache``;
/// older ones (from before a restart, or forgotten by the cache) are in the
/// journal. This value decides, without I/O, whether a pair's outcome is
/// known, certainly new, or must be looked up; the sequencer does the
/// lookups (a whole round's at once, see ``pairsToPrefetch(_:)``) and
/// reports what it found.
struct ExactlyOnce {
    /// What is known of a pair.
    enum Lookup: Equatable {
        /// It was decided before: answer with this.
        case known(JournalOutcome)
        /// It is new: apply it.
        case new
        /// Only the journal can tell.
        case askJournal
    }

    private var outcomes: OutcomeCache
    private let capacity: Int
    /// Whether the journal had history when the engine started (then a pair
    /// missing from memory may be in the journal's outcomes).
    private let journalHasEarlierOutcomes: Bool
    /// Pairs of the current round that the journal was found not to know.
    private var checkedAbsent: Set<OutcomeKey> = []

    /// The rule for an engine starting on a journal that holds `revision` revisions.
    init(capacity: Int, journalRevision: UInt64) {
        self.capacity = capacity
        outcomes = OutcomeCache(capacity: capacity)
        journalHasEarlierOutcomes = journalRevision > 0
    }

    /// Whether a pair memory does not hold may have an outcome in the journal.
    private var journalMayKnowMore: Bool { journalHasEarlierOutcomes || outcomes.hasForgotten }

    /// What is known of `key`. A pair found absent in this round's prefetch
    /// is new (once: a second dispatch of it in the round was decided by the first).
    mutating func lookup(_ key: OutcomeKey) -> Lookup {
        if let outcome = outcomes[key] { return .known(outcome) }
        guard journalMayKnowMore, checkedAbsent.remove(key) == nil else { return .new }
        return .askJournal
    }

    /// Of the round's `keys`, those whose outcome only the journal can tell,
    /// without repeats; empty when at most one (not worth reading ahead).
    func pairsToPrefetch(_ keys: some Sequence<OutcomeKey>) -> [OutcomeKey] {
        guard journalMayKnowMore else { return [] }
        var seen: Set<OutcomeKey> = []
        let missing = keys.filter { outcomes[$0] == nil && seen.insert($0).inserted }
        return missing.count > 1 ? missing : []
    }

    /// The journal's answer for `key`: its outcome, or none (it is new this round).
    mutating func found(_ outcome: JournalOutcome?, for key: OutcomeKey) {
        if let outcome {
            outcomes.remember(outcome, for: key)
        } else {
            checkedAbsent.insert(key)
        }
    }

    /// The outcome decided now for `key` (the first outcome of a pair stays).
    mutating func decided(_ outcome: JournalOutcome, for key: OutcomeKey) {
        outcomes.remember(outcome, for: key)
    }

    /// The round is over: what its prefetch found absent is forgotten.
    mutating func endRound() {
        checkedAbsent.removeAll(keepingCapacity: true)
    }

    /// The outcomes decided in memory will never be durable (the journal
    /// failed): forget them all, so that a retry is answered by the journal,
    /// never with an ack for an action that was not written.
    mutating func forgetUndurable() {
        outcomes = OutcomeCache(capacity: capacity, hasForgotten: true)
    }
}
