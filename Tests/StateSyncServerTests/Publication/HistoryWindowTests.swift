import StateSyncCore
import Testing
@testable import StateSyncServer

@Suite struct HistoryWindowTests {
    @Test func holdsBatchEndRevisionsOnly() {
        var window = HistoryWindow(capacity: 8, costBudget: 1_000, revision: 3, state: 0)
        window.append(1, at: 5, cost: 1)
        window.append(2, at: 9, cost: 1)
        #expect(window.state(at: 3) == 0)
        #expect(window.state(at: 5) == 1)
        #expect(window.state(at: 9) == 2)
        #expect(window.state(at: 4) == nil)
        #expect(window.state(at: 10) == nil)
        #expect(window.lastRevision == 9)
    }

    @Test func dropsTheOldestBeyondTheCapacity() {
        var window = HistoryWindow(capacity: 3, costBudget: 1_000, revision: 0, state: 0)
        for revision in 1...5 {
            window.append(.integer(Int64(revision)), at: UInt64(revision), cost: 1)
        }
        #expect(window.count == 3)
        #expect(window.state(at: 2) == nil)
        #expect(window.state(at: 3) != nil)
    }

    @Test func dropsTheOldestBeyondTheCostBudgetButKeepsTheNewest() {
        var window = HistoryWindow(capacity: 100, costBudget: 25, revision: 0, state: 0)
        for revision in 1...4 {
            window.append(.integer(Int64(revision)), at: UInt64(revision), cost: 10)
        }
        // 4 × 10 is over 25: only the two newest fit.
        #expect(window.count == 2)
        #expect(window.state(at: 2) == nil)
        #expect(window.state(at: 3) != nil)
        window.append(5, at: 5, cost: 1_000)
        #expect(window.count == 1)
        #expect(window.state(at: 5) == 5)
    }
}
