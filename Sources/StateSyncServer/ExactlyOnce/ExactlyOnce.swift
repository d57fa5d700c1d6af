import Foundation
import StateSyncCore
import StateSyncJournal

/// The exactly-once rule: a repeated `(clientId, id)` gets its first outcome
/// and is never applied again, for as long as ``OutcomeRetention`` says. It
/// decides without I/O whether a pair is known, new, or must be looked up.
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

    /// What the journal must forget with the next batch.
    struct JournalChanges: Equatable {
        /// clientIds whose outcomes are all dropped.
        var forgottenClients: [String] = []
        /// clientIds whose outcomes are trimmed to their most recent, and how many stay.
        var outcomeTrims: [String: Int] = [:]
    }

    private var outcomes: OutcomeCache
    private var clients: ClientTable
    private let capacity: Int
    private let retention: OutcomeRetention
    /// Whether the journal had history when the engine started (then a pair
    /// missing from memory may be in the journal's outcomes).
    private let journalHasEarlierOutcomes: Bool
    /// The pairs the journal remembered at the start (`nil`: unknown, any may be there).
    private let earlierPairs: OutcomePairFilter?
    /// Whether other nodes decide pairs too (see ``init(capacity:retention:journalRevision:restoredClients:restoredPairs:sharedJournal:now:)``).
    private let sharedJournal: Bool
    /// Whether this round looks pairs up on a shared journal (``verifyWithJournal()``).
    private var verifying = false
    /// Pairs of the current round that the journal was found not to know.
    private var checkedAbsent: Set<OutcomeKey> = []
    private var changes = JournalChanges()

    /// The rule for an engine starting on a journal at `revision` that remembers
    /// `restoredClients` and `restoredPairs`. On a `sharedJournal` a pair memory
    /// lacks is new: the commit refuses one decided elsewhere, and the retry checks.
    init(
        capacity: Int, retention: OutcomeRetention, journalRevision: UInt64, restoredClients: [String] = [],
        restoredPairs: OutcomePairFilter? = nil, sharedJournal: Bool = false, now: Date = Date()
    ) {
        self.capacity = capacity
        self.retention = retention
        outcomes = OutcomeCache(capacity: capacity)
        clients = ClientTable(retention: retention, restored: restoredClients, now: now)
        if !sharedJournal { changes.forgottenClients = clients.restoredBeyondCapacity }
        journalHasEarlierOutcomes = journalRevision > 0
        earlierPairs = restoredPairs
        self.sharedJournal = sharedJournal
    }

    /// The next round looks up in the journal every pair memory does not
    /// hold: it sequences again a batch that a shared journal refused
    /// because another node had decided some of its pairs.
    mutating func verifyWithJournal() {
        verifying = true
    }

    /// Whether `key`, which memory does not hold, may have an outcome in the
    /// journal: one the cache forgot, or one from before the start (on a
    /// shared journal: only in a round that verifies).
    private func journalMayKnow(_ key: OutcomeKey) -> Bool {
        if sharedJournal { return verifying }
        return outcomes.hasForgotten || (journalHasEarlierOutcomes && earlierPairs?.mayContain(key) ?? true)
    }

    /// What is known of `key`. A pair found absent in this round's prefetch
    /// is new (once: a second dispatch of it in the round was decided by the first).
    mutating func lookup(_ key: OutcomeKey) -> Lookup {
        if let outcome = outcomes[key] { return .known(outcome) }
        guard journalMayKnow(key), checkedAbsent.remove(key) == nil else { return .new }
        return .askJournal
    }

    /// Of the round's `keys`, those whose outcome only the journal can tell,
    /// without repeats; empty when at most one (not worth reading ahead).
    func pairsToPrefetch(_ keys: some Sequence<OutcomeKey>) -> [OutcomeKey] {
        var seen: Set<OutcomeKey> = []
        let missing = keys.filter { outcomes[$0] == nil && journalMayKnow($0) && seen.insert($0).inserted }
        return missing.count > 1 ? missing : []
    }

    /// The journal's answer for `key`: its outcome, or none (it is new this round).
    mutating func found(_ outcome: JournalOutcome?, for key: OutcomeKey) {
        if let outcome {
            outcomes.found(outcome, for: key)
        } else {
            checkedAbsent.insert(key)
        }
    }

    /// Whether a new pair of `clientID` may be decided at `now`: `nil` when
    /// it may (its outcome will be remembered), else why not (the table of
    /// clientIds is full of active ones, see ``OutcomeRetention``).
    mutating func admit(_ clientID: String, now: Date) -> String? {
        switch clients.admit(clientID, now: now) {
        case .admitted(let forgotten):
            if let forgotten, !sharedJournal {
                changes.forgottenClients.append(forgotten)
                changes.outcomeTrims[forgotten] = nil
            }
            return nil
        case .refused(let message):
            return message
        }
    }

    /// The outcome decided now for `key`, whose clientId was admitted (the
    /// first outcome of a pair stays).
    mutating func decided(_ outcome: JournalOutcome, for key: OutcomeKey, now: Date) {
        outcomes.decided(outcome, for: key)
        if clients.decided(for: key.clientID, now: now) {
            changes.outcomeTrims[key.clientID] = retention.perClient
        }
    }

    /// What the journal must forget, to write with the batch being built.
    mutating func takeJournalChanges() -> JournalChanges {
        defer { changes = JournalChanges() }
        return changes
    }

    /// The batch with every outcome decided so far was handed to the journal.
    mutating func sealed() {
        outcomes.sealed()
    }

    /// The batch handed to the journal last is durable.
    mutating func durable() {
        outcomes.durable()
    }

    /// The round is over: what its prefetch found absent is forgotten.
    mutating func endRound() {
        checkedAbsent.removeAll(keepingCapacity: true)
        verifying = false
    }

    /// The outcomes decided in memory will never be durable (the journal
    /// failed): forget them all, so that a retry is answered by the journal,
    /// never with an ack for an action that was not written.
    mutating func forgetUndurable() {
        outcomes = OutcomeCache(capacity: capacity, hasForgotten: true)
    }
}
