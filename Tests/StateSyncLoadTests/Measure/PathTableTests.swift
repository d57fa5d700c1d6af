import Testing
@testable import StateSyncLoad

@Suite struct PathTableTests {
    @Test func pathsOverlapWhenOneIsInsideTheOther() {
        var table = PathTable()
        let counters = table.intern("/counters")
        let hits = table.intern("/counters/hits")
        let misses = table.intern("/counters/misses")
        let todos = table.intern("/todos")
        let root = table.intern("")
        #expect(table.overlaps(counters, hits))
        #expect(table.overlaps(hits, counters))
        #expect(table.overlaps(root, todos))
        #expect(!table.overlaps(hits, misses))
        #expect(!table.overlaps(todos, hits))
    }

    @Test func countsTheSubscriptionsAChangeConcerns() {
        var table = PathTable()
        for _ in 0..<3 { _ = table.addSubscription("/counters") }
        _ = table.addSubscription("/counters/c1")
        _ = table.addSubscription("/counters/c2")
        _ = table.addSubscription("")
        _ = table.addSubscription("/todos")
        let c1 = table.intern("/counters/c1")
        let counters = table.intern("/counters")
        let chat = table.intern("/chat")
        let root = table.intern("")
        // A change of c1 concerns /counters (3), /counters/c1 and the root.
        #expect(table.subscribersAffected(by: c1) == 5)
        // A change of the whole counters object concerns everything at or below it, and the root.
        #expect(table.subscribersAffected(by: counters) == 6)
        #expect(table.subscribersAffected(by: chat) == 1)
        #expect(table.subscribersAffected(by: root) == 7)
    }
}
