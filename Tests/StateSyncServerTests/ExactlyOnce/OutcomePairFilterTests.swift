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

    @Test func anEmptyFilterContainsNothing() {
        let filter = OutcomePairFilter(expectedPairs: 0)
        #expect(!filter.mayContain(OutcomeKey(clientID: "c", actionID: "a")))
    }
}
