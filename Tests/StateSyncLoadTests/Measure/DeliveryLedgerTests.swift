import Testing
@testable import StateSyncLoad

@Suite struct DeliveryLedgerTests {
    @Test func matchesEachCoveredActionOfTheRunWithItsSubscriber() {
        let ledger = DeliveryLedger()
        let counters = ledger.addSubscription("/counters")
        let own = ledger.addSubscription("/counters/c1")
        let c1 = ledger.actionPath("/counters/c1")
        let c2 = ledger.actionPath("/counters/c2")
        #expect(ledger.recordAck(rev: 11, sent: 1_000, path: c1, node: 0) == 2)
        #expect(ledger.recordAck(rev: 12, sent: 2_000, path: c2, node: 0) == 1)
        // Rev 13 is not the run's (presence, say).
        var pending = [
            PendingPatch(path: counters, base: 10, rev: 13, arrived: 5_000, node: 0),
            PendingPatch(path: own, base: 10, rev: 13, arrived: 6_000, node: 0),
            PendingPatch(path: own, base: 13, rev: 14, arrived: 9_000, node: 0),
        ]
        var samples: [UInt64] = []
        let found = ledger.match(&pending, before: 8_000) { nanoseconds, _ in samples.append(nanoseconds) }
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
        _ = ledger.recordAck(rev: 1, sent: 0, path: action, node: 0)
        let far = UInt64(ledger.capacity) + 5
        _ = ledger.recordAck(rev: far, sent: 0, path: action, node: 0)
        var pending = [PendingPatch(path: path, base: 0, rev: far, arrived: 10, node: 0)]
        let found = ledger.match(&pending, before: .max) { _, _ in }
        #expect(found == 1)
        #expect(pending.isEmpty)
    }

    @Test func tellsADeliveryOnTheWritersNodeFromOneOnAnotherNode() {
        let ledger = DeliveryLedger()
        let counters = ledger.addSubscription("/counters")
        let hits = ledger.actionPath("/counters/hits")
        // Rev 5 written through node 0, rev 6 through node 1.
        _ = ledger.recordAck(rev: 5, sent: 1_000, path: hits, node: 0)
        _ = ledger.recordAck(rev: 6, sent: 2_000, path: hits, node: 1)
        var pending = [
            PendingPatch(path: counters, base: 4, rev: 5, arrived: 3_000, node: 0),
            PendingPatch(path: counters, base: 4, rev: 5, arrived: 4_000, node: 2),
            PendingPatch(path: counters, base: 5, rev: 6, arrived: 7_000, node: 0),
        ]
        var samples: [(UInt64, Bool)] = []
        #expect(ledger.match(&pending, before: .max) { samples.append(($0, $1)) } == 3)
        #expect(samples.map(\.0) == [2_000, 3_000, 5_000])
        #expect(samples.map(\.1) == [true, false, false])
    }

    @Test func theStoresOfARunShareItsCapacityEachKeepingAFloor() {
        #expect(DeliveryLedger().capacity == DeliveryLedger.runCapacity)
        #expect(DeliveryLedger(stores: 4).capacity == DeliveryLedger.runCapacity / 4)
        #expect(DeliveryLedger(stores: 1_000).capacity == DeliveryLedger.storeCapacity)
    }

    @Test func aPatchOlderThanASmallLedgerRemembersIsMatchedWithWhatIsLeft() {
        let ledger = DeliveryLedger(stores: 1_000)
        let counters = ledger.addSubscription("/counters")
        let hits = ledger.actionPath("/counters/hits")
        let newest = UInt64(ledger.capacity) + 10
        for rev in 1...newest { _ = ledger.recordAck(rev: rev, sent: rev, path: hits, node: 0) }
        // Covers every revision; only the newest `capacity` of them are still known.
        var pending = [PendingPatch(path: counters, base: 0, rev: newest, arrived: newest + 1, node: 0)]
        #expect(ledger.match(&pending, before: .max) { _, _ in } == ledger.capacity)
    }
}
