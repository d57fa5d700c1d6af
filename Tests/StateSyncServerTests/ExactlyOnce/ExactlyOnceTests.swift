import Foundation
@testable import StateSyncServer
import StateSyncJournal
import Testing

@Suite(.timeLimit(.minutes(1))) struct ExactlyOnceTests {
    private let alice = OutcomeKey(clientID: "c-a", actionID: "a1")
    private let bob = OutcomeKey(clientID: "c-b", actionID: "a1")
    private let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    @Test func onAFreshJournalAnUnknownPairIsNewAndADecidedOneIsKnown() {
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 0)
        #expect(rule.lookup(alice) == .new)
        rule.decided(.accepted(revision: 4), for: alice, now: start)
        #expect(rule.lookup(alice) == .known(.accepted(revision: 4)))
        #expect(rule.lookup(bob) == .new)
    }

    @Test func theFirstOutcomeOfAPairStays() {
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 0)
        rule.decided(.rejected(code: "not_found", message: "no todo"), for: alice, now: start)
        rule.decided(.accepted(revision: 9), for: alice, now: start)
        #expect(rule.lookup(alice) == .known(.rejected(code: "not_found", message: "no todo")))
    }

    @Test func afterARestartOnlyTheJournalCanTellAndWhatItFoundIsRemembered() {
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 120)
        #expect(rule.lookup(alice) == .askJournal)
        rule.found(.accepted(revision: 7), for: alice)
        #expect(rule.lookup(alice) == .known(.accepted(revision: 7)))
    }

    @Test func afterARestartAPairOutsideTheJournalsPairsIsNewWithoutAsking() {
        // Sized for a thousand pairs: a false "maybe" for bob (the hash seed differs per process) stays out of reach.
        var pairs = OutcomePairFilter(expectedPairs: 1_000)
        pairs.insert(clientID: alice.clientID, actionID: alice.actionID)
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 120, restoredPairs: pairs)
        #expect(rule.lookup(alice) == .askJournal)
        #expect(rule.lookup(bob) == .new)
        #expect(rule.pairsToPrefetch([alice, bob, alice]).isEmpty)
    }

    @Test func aPairTheRoundsPrefetchFoundAbsentIsNewOnceThenAskedAgainNextRound() {
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 120)
        rule.found(nil, for: alice)
        #expect(rule.lookup(alice) == .new)
        #expect(rule.lookup(alice) == .askJournal)
        rule.found(nil, for: bob)
        rule.endRound()
        #expect(rule.lookup(bob) == .askJournal)
    }

    @Test func prefetchAsksOnlyForUnknownPairsOnceEachAndOnlyWhenWorthIt() {
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 120)
        let carol = OutcomeKey(clientID: "c-c", actionID: "a1")
        rule.found(.accepted(revision: 1), for: carol)
        #expect(rule.pairsToPrefetch([alice, carol, alice, bob]) == [alice, bob])
        #expect(rule.pairsToPrefetch([alice, carol]).isEmpty)
        #expect(ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 0).pairsToPrefetch([alice, bob]).isEmpty)
    }

    @Test func onASharedJournalAnUnknownPairIsNewUntilARoundVerifies() {
        var rule = ExactlyOnce(capacity: 1, retention: OutcomeRetention(), journalRevision: 120, sharedJournal: true)
        // The commit checks it: no read per action.
        #expect(rule.lookup(alice) == .new)
        #expect(rule.pairsToPrefetch([alice, bob]).isEmpty)
        // Forgotten outcomes too.
        rule.decided(.accepted(revision: 1), for: alice, now: start)
        rule.forgetUndurable()
        #expect(rule.lookup(alice) == .new)
        // The round sequencing a batch refused for a pair conflict looks every unknown pair up...
        rule.verifyWithJournal()
        #expect(rule.lookup(alice) == .askJournal)
        #expect(rule.pairsToPrefetch([alice, bob]) == [alice, bob])
        // ...that round only.
        rule.endRound()
        #expect(rule.lookup(bob) == .new)
    }

    @Test func aForgottenPairIsLookedUpInTheJournal() {
        var rule = ExactlyOnce(capacity: 1, retention: OutcomeRetention(), journalRevision: 0)
        rule.decided(.accepted(revision: 1), for: alice, now: start)
        rule.decided(.accepted(revision: 2), for: bob, now: start)
        rule.sealed()
        rule.durable()
        #expect(rule.lookup(alice) == .askJournal)
        #expect(rule.lookup(bob) == .known(.accepted(revision: 2)))
    }

    @Test func outcomesThatWillNeverBeDurableAreForgotten() {
        var rule = ExactlyOnce(capacity: 10, retention: OutcomeRetention(), journalRevision: 0)
        rule.decided(.accepted(revision: 1), for: alice, now: start)
        rule.forgetUndurable()
        #expect(rule.lookup(alice) == .askJournal)
    }

    @Test func anOutcomeIsNotForgottenBeforeItsBatchIsDurable() {
        var rule = ExactlyOnce(capacity: 1, retention: OutcomeRetention(), journalRevision: 0)
        rule.decided(.accepted(revision: 1), for: alice, now: start)
        rule.sealed()
        // Others' outcomes beyond the capacity while alice's batch is written.
        for index in 0..<50 {
            rule.decided(.rejected(code: "invalid_action", message: "junk"), for: OutcomeKey(clientID: "junk", actionID: "j\(index)"), now: start)
        }
        #expect(rule.lookup(alice) == .known(.accepted(revision: 1)))
        rule.durable()
        #expect(rule.lookup(alice) == .askJournal)
        #expect(rule.lookup(OutcomeKey(clientID: "junk", actionID: "j49")) == .known(.rejected(code: "invalid_action", message: "junk")))
    }

    @Test func eachClientsOutcomesAreTrimmedInTheJournalOnlyAfterItsOwnDecisions() {
        var rule = ExactlyOnce(capacity: 100, retention: OutcomeRetention(perClient: 3), journalRevision: 0)
        for index in 0..<2 { rule.decided(.accepted(revision: UInt64(index)), for: OutcomeKey(clientID: "junk", actionID: "\(index)"), now: start) }
        rule.decided(.accepted(revision: 9), for: alice, now: start)
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges())
        rule.decided(.accepted(revision: 3), for: OutcomeKey(clientID: "junk", actionID: "3"), now: start)
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges(outcomeTrims: ["junk": 3]))
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges())
    }

    @Test func aFullTableForgetsOnlyAClientQuietForLongerThanTheWindowAndRefusesOtherwise() {
        let retention = OutcomeRetention(perClient: 10, window: .seconds(60), maxClients: 2)
        var rule = ExactlyOnce(capacity: 100, retention: retention, journalRevision: 0)
        for key in [alice, bob] {
            #expect(rule.admit(key.clientID, now: start) == nil)
            rule.decided(.accepted(revision: 1), for: key, now: start)
        }
        // Alice stays active; bob goes quiet.
        rule.decided(.accepted(revision: 2), for: OutcomeKey(clientID: "c-a", actionID: "a2"), now: start + 50)
        let refusal = rule.admit("c-new", now: start + 59)
        #expect(refusal?.contains("the server remembers the outcomes of 2 clientIds") == true)
        #expect(rule.admit("c-a", now: start + 59) == nil)
        #expect(rule.admit("c-new", now: start + 61) == nil)
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges(forgottenClients: ["c-b"]))
        rule.decided(.accepted(revision: 3), for: OutcomeKey(clientID: "c-new", actionID: "n1"), now: start + 61)
        // Now alice is the least recently active, but within the window.
        #expect(rule.admit("c-other", now: start + 100) != nil)
    }

    @Test func restoredClientsCountAsActiveAtTheRestartAndTheOldestBeyondTheTableAreForgotten() {
        let retention = OutcomeRetention(perClient: 10, window: .seconds(60), maxClients: 2)
        var rule = ExactlyOnce(
            capacity: 100, retention: retention, journalRevision: 40, restoredClients: ["c-old", "c-a", "c-b"], now: start)
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges(forgottenClients: ["c-old"]))
        #expect(rule.admit("c-new", now: start + 30) != nil)
        #expect(rule.admit("c-a", now: start + 30) == nil)
        #expect(rule.admit("c-new", now: start + 61) == nil)
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges(forgottenClients: ["c-a"]))
    }

    @Test func onASharedJournalTheTableForgetsClientsFromThisNodesMemoryOnly() {
        let retention = OutcomeRetention(perClient: 10, window: .seconds(60), maxClients: 2)
        var rule = ExactlyOnce(
            capacity: 100, retention: retention, journalRevision: 40, restoredClients: ["c-old", "c-a", "c-b"],
            sharedJournal: true, now: start)
        #expect(rule.admit("c-new", now: start + 30) != nil)
        #expect(rule.admit("c-new", now: start + 61) == nil)
        #expect(rule.takeJournalChanges() == ExactlyOnce.JournalChanges())
    }
}
