@testable import StateSyncServer
import Testing

@Suite
struct TokenBucketTests {
    @Test(arguments: [(1, 1), (5, 3), (100, 50)])
    func burstThenRefillAtTheRate(rate: Int, capacity: Int) {
        let start = ContinuousClock.now
        var bucket = TokenBucket(ratePerSecond: rate, capacity: capacity, now: start)
        var taken = (0..<capacity).map { _ in bucket.take(now: start) }
        #expect(taken.allSatisfy { $0 })
        var refused = bucket.take(now: start)
        #expect(!refused)
        let oneToken = start + Duration.seconds(1) / rate
        let refilled = bucket.take(now: oneToken)
        #expect(refilled)
        refused = bucket.take(now: oneToken)
        #expect(!refused)
        // Refill never exceeds the capacity.
        let much = start + .seconds(1_000)
        taken = (0..<capacity).map { _ in bucket.take(now: much) }
        #expect(taken.allSatisfy { $0 })
        refused = bucket.take(now: much)
        #expect(!refused)
    }

    @Test func aBucketOfBytesTakesAMessageSizeAtOnce() {
        let start = ContinuousClock.now
        var bucket = TokenBucket(ratePerSecond: 1_000, capacity: 2_000, now: start)
        let taken = [
            bucket.take(1_500, now: start), bucket.take(600, now: start), bucket.take(500, now: start),
            bucket.take(1, now: start), bucket.take(1_000, now: start + .seconds(1)),
            bucket.take(2_001, now: start + .seconds(100)),
        ]
        #expect(taken == [true, false, true, false, true, false])
    }
}
