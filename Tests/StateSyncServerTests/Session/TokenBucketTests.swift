@testable import StateSyncServer
import Testing

@Suite
struct TokenBucketTests {
    @Test(arguments: [(1, 1), (5, 3), (100, 50)])
    func burstThenRefillAtTheRate(rate: Int, capacity: Int) {
        let start = ContinuousClock.now
        let bucketRate = TokenBucket.Rate(perSecond: rate, capacity: capacity)
        var bucket = TokenBucket(full: bucketRate, now: start)
        var taken = (0..<capacity).map { _ in bucket.take(at: bucketRate, now: start) }
        #expect(taken.allSatisfy { $0 })
        var refused = bucket.take(at: bucketRate, now: start)
        #expect(!refused)
        let oneToken = start + Duration.seconds(1) / rate
        let refilled = bucket.take(at: bucketRate, now: oneToken)
        #expect(refilled)
        refused = bucket.take(at: bucketRate, now: oneToken)
        #expect(!refused)
        // Refill never exceeds the capacity.
        let much = start + .seconds(1_000)
        taken = (0..<capacity).map { _ in bucket.take(at: bucketRate, now: much) }
        #expect(taken.allSatisfy { $0 })
        refused = bucket.take(at: bucketRate, now: much)
        #expect(!refused)
    }

    @Test func aBucketOfBytesTakesAMessageSizeAtOnce() {
        let start = ContinuousClock.now
        let rate = TokenBucket.Rate(perSecond: 1_000, capacity: 2_000)
        var bucket = TokenBucket(full: rate, now: start)
        let taken = [
            bucket.take(1_500, at: rate, now: start), bucket.take(600, at: rate, now: start), bucket.take(500, at: rate, now: start),
            bucket.take(1, at: rate, now: start), bucket.take(1_000, at: rate, now: start + .seconds(1)),
            bucket.take(2_001, at: rate, now: start + .seconds(100)),
        ]
        #expect(taken == [true, false, true, false, true, false])
    }
}
