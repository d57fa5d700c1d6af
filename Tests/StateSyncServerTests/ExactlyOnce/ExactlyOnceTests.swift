@testable import StateSyncServer
import Testing

@Suite struct ExactlyOnceTests {
    private let alice = OutcomeKey(clientID: "c-a", actionID: "a1")
    private let bob = OutcomeKey(clientID: "c-b", actionID: "a1")

    @Test func onAFreshJournalAnUnknownPairIsNewAndADecidedOneIsKnown() {
        var rule = ExactlyOnce(capacity: 10, journalRevision: 0)
        #expect(rule.lookup(alice) == .new)
        rule.decided(.accepted(revision: 4), for: alice)
        #expect(rule.lookup(alice) == .known(.accepted(revision: 4)))
        #expect(rule.lookup(bob) == .new)
    }

    @Test func theFirstOutcomeOfAPairStays() {
        var rule = ExactlyOnce(capacity: 10, journalRevision: 0)
        rule.decided(.rejected(code: "not_found", message: "no todo"), for: alice)
        rule.decided(.accepted(revision: 9), for: alice)
        #expect(rule.lookup(alice) == .known(.rejected(code: "not_found", message: "no todo")))
    }

    @Test func afterARestartOnlyTheJournalCanTellAndWhatItFoundIsRemembered() {
        var rule = ExactlyOnce(capacity: 10, journalRevision: 120)
        #expect(rule.lookup(alice) == .askJournal)
        rule.found(.accepted(revision: 7), for: alice)
        #expect(rule.lookup(alice) == .known(.accepted(revision: 7)))
    }

    @Test func aPairTheRoundsPrefetchFoundAbsentIsNewOnceThenAskedAgainNextRound() {
        var rule = ExactlyOnce(capacity: 10, journalRevision: 120)
        rule.found(nil, for: alice)
        #expect(rule.lookup(alice) == .new)
        #expect(rule.lookup(alice) == .askJournal)
        rule.found(nil, for: bob)
        rule.endRound()
        #expect(rule.lookup(bob) == .askJournal)
    }

    @Test func prefetchAsksOnlyForUnknownPairsOnceEachAndOnlyWhenWorthIt() {
        var rule = ExactlyOnce(capacity: 10, journalRevision: 120)
        let carol = OutcomeKey(clientID: "c-c", actionID: "a1")
        rule.found(.accepted(revision: 1), for: carol)
        #expect(rule.pairsToPrefetch([alice, carol, alice, bob]) == [alice, bob])
        #expect(rule.pairsToPrefetch([alice, carol]).isEmpty)
        #expect(ExactlyOnce(capacity: 10, journalRevision: 0).pairsToPrefetch([alice, bob]).isEmpty)
    }

    @Test func aForgottenPairIsLookedUpInTheJournal() {
        var rule = ExactlyOnce(capacity: 1, journalRevision: 0)
        rule.decided(.accepted(revision: 1), for: alice)
        rule.decided(.accepted(revision: 2), for: bob)
        #expect(rule.lookup(alice) == .askJournal)
        #expect(rule.lookup(bob) == .known(.accepted(revision: 2)))
    }

    @Test func outcomesThatWillNeverBeDurableAreForgotten() {
        var rule = ExactlyOnce(capacity: 10, journalRevision: 0)
        rule.decided(.accepted(revision: 1), for: alice)
        rule.forgetUndurable()
        #expect(rule.lookup(alice) == .askJournal)
    }
}
