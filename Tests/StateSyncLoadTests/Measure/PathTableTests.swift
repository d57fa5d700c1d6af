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

@Suite struct DeliveryLedgerTests {
    @Test func matchesEachCoveredActionOfTheRunWithItsSubscriber() {
        let ledger = DeliveryLedger()
        let counters = ledger.addSubscription("/counters")
        let own = ledger.addSubscription("/counters/c1")
        let c1 = ledger.actionPath("/counters/c1")
        let c2 = ledger.actionPath("/counters/c2")
        #expect(ledger.recordAck(rev: 11, sent: 1_000, path: c1) == 2)
        #expect(ledger.recordAck(rev: 12, sent: 2_000, path: c2) == 1)
        // Rev 13 is not the run's (presence, say).
        var pending = [
            PendingPatch(path: counters, base: 10, rev: 13, arrived: 5_000),
            PendingPatch(path: own, base: 10, rev: 13, arrived: 6_000),
            PendingPatch(path: own, base: 13, rev: 14, arrived: 9_000),
        ]
        var samples: [UInt64] = []
        let found = ledger.match(&pending, before: 8_000) { samples.append($0) }
        #expect(found == 3)
        #expect(samples == [4_000, 3_000, 5_000])
        // The patch that arrived after the watermark waits.
        #expect(pending.count == 1)
        #expect(pending.first?.rev == 14)
    }

    @Test func revisionsBeyondTheWindowAreNotMatched() {
        let ledger = DeliveryLedger()
        let path = ledger.addSubscription("/counters")
        let action = ledger.actionPath("/counters/hits")
        _ = ledger.recordAck(rev: 1, sent: 0, path: action)
        let far = UInt64(DeliveryLedger.capacity) + 5
        _ = ledger.recordAck(rev: far, sent: 0, path: action)
        var pending = [PendingPatch(path: path, base: 0, rev: far, arrived: 10)]
        let found = ledger.match(&pending, before: .max) { _ in }
        #expect(found == 1)
        #expect(pending.isEmpty)
    }
}

@Suite struct WriterQueueTests {
    @Test func answersMatchByIdAndTheOldestSkipsAnsweredOnes() {
        var queue = WriterQueue()
        for sequence in 1...5 { queue.append(.init(sequence: sequence, sent: UInt64(sequence * 10), path: 0)) }
        // A refusal of 3 overtakes the answers of 1 and 2.
        #expect(queue.remove(sequence: 3)?.sent == 30)
        #expect(queue.remove(sequence: 3) == nil)
        #expect(queue.oldest()?.sequence == 1)
        #expect(queue.remove(sequence: 1) != nil)
        #expect(queue.remove(sequence: 2) != nil)
        #expect(queue.oldest()?.sequence == 4)
        #expect(queue.contains(5))
        #expect(!queue.contains(2))
        #expect(queue.count == 2)
    }

    @Test func keepsOrderAcrossCompaction() {
        var queue = WriterQueue()
        for sequence in 1...3_000 { queue.append(.init(sequence: sequence, sent: UInt64(sequence), path: 0)) }
        for sequence in 1...2_000 {
            #expect(queue.remove(sequence: sequence) != nil)
            queue.compact()
        }
        #expect(queue.oldest()?.sequence == 2_001)
        for sequence in 3_001...3_010 { queue.append(.init(sequence: sequence, sent: 0, path: 0)) }
        var last = 2_000
        while let item = queue.oldest() {
            #expect(item.sequence == last + 1)
            last = item.sequence
            _ = queue.remove(sequence: item.sequence)
        }
        #expect(last == 3_010)
        #expect(queue.count == 0)
    }
}
