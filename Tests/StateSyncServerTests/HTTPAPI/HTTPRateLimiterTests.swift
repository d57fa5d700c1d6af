@testable import StateSyncServer
import Testing

@Suite struct HTTPRateLimiterTests {
    private static let now = ContinuousClock.now

    @Test func eachAddressHasItsOwnBucket() {
        let limiter = HTTPRateLimiter(ratePerSecond: 1, burst: 2)
        #expect([limiter.admit("a", now: Self.now), limiter.admit("a", now: Self.now), limiter.admit("a", now: Self.now)] == [true, true, false])
        #expect(limiter.admit("b", now: Self.now))
        #expect(limiter.admit("a", now: Self.now + .seconds(1)))
    }

    @Test func theTableIsBoundedAndForgetsTheAddressSeenLeastRecently() {
        let limiter = HTTPRateLimiter(ratePerSecond: 1, burst: 1, capacity: 3)
        for address in ["a", "b", "c"] { _ = limiter.admit(address, now: Self.now) }
        #expect(!limiter.admit("a", now: Self.now))   // a is now the most recent
        #expect(limiter.admit("d", now: Self.now))    // b is forgotten
        #expect(limiter.count == 3)
        #expect(limiter.admit("b", now: Self.now))    // b starts again with a full bucket
        #expect(!limiter.admit("a", now: Self.now))   // a was kept
    }
}
