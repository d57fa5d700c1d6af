import StateSyncCore
import Testing
@testable import StateSyncLoad

@Suite struct WriterQueueTests {
    @Test func answersMatchByIdAndTheOldestSkipsAnsweredOnes() {
        var queue = WriterQueue()
        for sequence in 1...5 { queue.append(.init(sequence: sequence, sent: UInt64(sequence * 10), path: 0, action: [:])) }
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
        #expect(queue.inSendingOrder.map(\.sequence) == [4, 5])
    }

    @Test func theOutboxToSendAgainIsTheUnansweredInSendingOrder() {
        var queue = WriterQueue()
        for sequence in 1...2_000 { queue.append(.init(sequence: sequence, sent: 0, path: 0, action: ["n": .integer(Int64(sequence))])) }
        for sequence in 1...1_500 where sequence != 700 {
            _ = queue.remove(sequence: sequence)
            queue.compact()
        }
        _ = queue.oldest()
        let outbox = queue.inSendingOrder
        #expect(outbox.map(\.sequence) == [700] + Array(1_501...2_000))
        #expect(outbox.first?.action["n"] == .integer(700))
    }

    @Test func keepsOrderAcrossCompaction() {
        var queue = WriterQueue()
        for sequence in 1...3_000 { queue.append(.init(sequence: sequence, sent: UInt64(sequence), path: 0, action: [:])) }
        for sequence in 1...2_000 {
            #expect(queue.remove(sequence: sequence) != nil)
            queue.compact()
        }
        #expect(queue.oldest()?.sequence == 2_001)
        for sequence in 3_001...3_010 { queue.append(.init(sequence: sequence, sent: 0, path: 0, action: [:])) }
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
