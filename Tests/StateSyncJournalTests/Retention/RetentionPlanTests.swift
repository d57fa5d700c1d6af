import Testing
@testable import StateSyncJournal

@Suite(.timeLimit(.minutes(1)))
struct RetentionPlanTests {
    @Test func entriesAreKeptFromTheNewestSnapshotAtOrBeforeTheCutoff() {
        #expect(RetentionPlan.keepFrom(snapshots: [0, 1_000, 2_000, 3_000], cutoff: 2_500) == 2_000)
        #expect(RetentionPlan.keepFrom(snapshots: [0, 1_000, 2_000], cutoff: 2_000) == 2_000)
        #expect(RetentionPlan.keepFrom(snapshots: [3_000], cutoff: 2_500) == 2_501)
        #expect(RetentionPlan.cutoff(newest: 3_000, revisions: 10_000) == 0)
        #expect(RetentionPlan.cutoff(newest: 13_000, revisions: 10_000) == 3_000)
    }

    @Test func olderSnapshotsAreThinnedToOnePerDoublingOfTheDistance() {
        let snapshots = Array(stride(from: UInt64(0), through: 100_000, by: 1_000))
        let kept = RetentionPlan.thinned(snapshots, below: 90_000, keeping: 8)
        let older = kept.filter { $0 < 90_000 }
        // Distances 1,000 to 90,000: classes 2^9…2^16 hold one each.
        #expect(older.count == 8)
        #expect(older.first == 0)
        #expect(older.contains(89_000))
        #expect(kept.filter { $0 >= 90_000 } == Array(stride(from: UInt64(90_000), through: 100_000, by: 1_000)))
        // No two kept older snapshots share a power of two of distance.
        for (older, newer) in zip(older, older.dropFirst()) {
            #expect((90_000 - older).leadingZeroBitCount < (90_000 - newer).leadingZeroBitCount, "\(older) and \(newer)")
        }
    }

    @Test func theNumberOfOlderSnapshotsIsBoundedAsHistoryGrowsForever() {
        var snapshots: [UInt64] = []
        var largest = 0
        for newest in stride(from: UInt64(1_000), through: 2_000_000, by: 1_000) {
            snapshots.append(newest)
            let base = RetentionPlan.keepFrom(snapshots: snapshots, cutoff: RetentionPlan.cutoff(newest: newest, revisions: 10_000))
            snapshots = RetentionPlan.thinned(snapshots, below: base, keeping: 8)
            largest = max(largest, snapshots.count)
        }
        #expect(largest <= 8 + 11)
        // Eight doublings from one interval: the oldest is far older than the window.
        #expect(2_000_000 - snapshots[0] > 60_000, "\(snapshots)")
    }

    @Test func snapshotsBunchedInOneClassStillKeepTheNumberAsked() {
        // Large batches left three snapshots within one doubling of the base.
        #expect(RetentionPlan.thinned([480, 494, 509, 542, 581], below: 542, keeping: 2) == [480, 509, 542, 581])
        #expect(RetentionPlan.thinned([480, 494, 509, 542], below: 542, keeping: 5) == [480, 494, 509, 542])
    }

    @Test(arguments: [7, 23, 37] as [UInt64])
    func batchesOfEverySizeKeepTheNumberAskedOnceThereAreThatMany(step: UInt64) {
        var snapshots: [UInt64] = []
        var revision: UInt64 = 0
        for batch in 0..<200 as Range<UInt64> {
            revision += 10 + (batch * step) % 51   // batches of 10 to 60 revisions, in an irregular order
            snapshots.append(revision)
            let base = RetentionPlan.keepFrom(snapshots: snapshots, cutoff: RetentionPlan.cutoff(newest: revision, revisions: 20))
            let below = snapshots.count { $0 < base }
            snapshots = RetentionPlan.thinned(snapshots, below: base, keeping: 2)
            #expect(snapshots.count { $0 < base } == min(2, below), "\(snapshots) below \(base)")
        }
    }

    @Test func zeroOlderSnapshotsKeepsOnlyTheWindow() {
        #expect(RetentionPlan.thinned([1, 2, 3, 10, 20], below: 10, keeping: 0) == [10, 20])
    }

    @Test func backoffDoublesUpToTheMaximum() {
        let backoff = RetryBackoff(first: .milliseconds(50), maximum: .seconds(2))
        #expect(backoff.delay(attempt: 1) == .milliseconds(50))
        #expect(backoff.delay(attempt: 2) == .milliseconds(100))
        #expect(backoff.delay(attempt: 6) == .milliseconds(1_600))
        #expect(backoff.delay(attempt: 7) == .seconds(2))
        #expect(backoff.delay(attempt: 1_000) == .seconds(2))
    }
}
