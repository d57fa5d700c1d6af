@testable import StateSyncServer
import StateSyncJournal
import Testing

@Suite(.timeLimit(.minutes(1))) struct OutcomePairFilterTests {
    @Test func everyInsertedPairMayBeContained() {
        var filter = OutcomePairFilter(expectedPairs: 1_000)
        for index in 0..<1_000 { filter.insert(clientID: "c\(index % 7)", actionID: "a\(index)") }
        #expect((0..<1_000).allSatisfy { filter.mayContain(OutcomeKey(clientID: "c\($0 % 7)", actionID: "a\($0)")) })
    }

    @Test func fewPairsNotInsertedAreReportedAsMaybe() {
        var filter = OutcomePairFilter(expectedPairs: 10_000)
        for index in 0..<10_000 { filter.insert(clientID: "c\(index % 10)", actionID: "a\(index)") }
        let falsePositives = (0..<10_000).count { filter.mayContain(OutcomeKey(clientID: "c\($0 % 10)", actionID: "b\($0)")) }
        // About 0.07 % expected; 1 % would mean the bits are not spread.
        #expect(falsePositives < 100)
    }

    /// In the smallest filter (64 bits) holding one pair, another pair is
    /// "maybe" only when all seven of its positions hit the first pair's
    /// seven bits: about (7/64)^7, 1.4 in ten million. Positions that two
    /// values fix (double hashing) coincide far more often: about once in
    /// 2,048, some 50 times in these 100,000.
    @Test func aSmallFiltersPositionsAreDrawnEachOnItsOwn() {
        var filter = OutcomePairFilter(expectedPairs: 1)
        filter.insert(clientID: "alice", actionID: "a1")
        let falsePositives = (0..<100_000).count { filter.mayContain(OutcomeKey(clientID: "bob", actionID: "b\($0)")) }
        #expect(falsePositives < 5)
    }

    @Test func anEmptyFilterContainsNothing() {
        let filter = OutcomePairFilter(expectedPairs: 0)
        #expect(!filter.mayContain(OutcomeKey(clientID: "c", actionID: "a")))
    }
}
