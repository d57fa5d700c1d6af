import NIOCore
@testable import StateSyncServer
import Testing
import WebSocket

/// Joins per client address: a token bucket each, in a bounded table.
@Suite(.timeLimit(.minutes(1)))
struct AddressRateLimiterTests {
    static func address(_ ip: String) throws -> ClientAddressKey {
        ClientAddressKey(try SocketAddress(ipAddress: ip, port: 1))
    }

    @Test func eachAddressHasItsOwnBurstAndRate() throws {
        let limiter = AddressRateLimiter(ratePerSecond: 2, burst: 3, capacity: 10)
        let start = ContinuousClock.now
        let first = try Self.address("192.0.2.1")
        #expect((0..<4).map { _ in limiter.admit(first, now: start) } == [true, true, true, false])
        #expect(limiter.admit(try Self.address("192.0.2.2"), now: start), "another address has a bucket of its own")
        #expect(limiter.admit(first, now: start + .milliseconds(500)), "one join refilled after half a second at 2/s")
        #expect(!limiter.admit(first, now: start + .milliseconds(500)))
    }

    @Test func theTableForgetsRefilledAddressesFirst() throws {
        let limiter = AddressRateLimiter(ratePerSecond: 1, burst: 2, capacity: 3)
        let start = ContinuousClock.now
        for (index, ip) in ["192.0.2.1", "192.0.2.2", "192.0.2.3"].enumerated() {
            _ = limiter.admit(try Self.address(ip), now: start + .seconds(index))
        }
        // At +2.5 s the buckets of .1 and .2 (one join each, 1/s) are full again: both are forgotten.
        _ = limiter.admit(try Self.address("192.0.2.4"), now: start + .milliseconds(2_500))
        #expect(limiter.trackedAddresses == 2)
    }

    @Test func withEveryBucketBusyTheIdlestAddressIsForgotten() throws {
        let limiter = AddressRateLimiter(ratePerSecond: 1, burst: 2, capacity: 3)
        let start = ContinuousClock.now
        for (ip, at) in [("192.0.2.1", 0), ("192.0.2.2", 100), ("192.0.2.3", 150)] {
            for _ in 0..<2 { _ = limiter.admit(try Self.address(ip), now: start + .milliseconds(at)) }
        }
        #expect(!limiter.admit(try Self.address("192.0.2.1"), now: start + .milliseconds(200)), "its bucket is empty")
        // A fourth address: nothing has refilled, so .2 (idle since +100 ms; .1 was refused at +200) goes.
        #expect(limiter.admit(try Self.address("192.0.2.4"), now: start + .milliseconds(300)))
        #expect(limiter.trackedAddresses == 3)
        #expect(limiter.admit(try Self.address("192.0.2.2"), now: start + .milliseconds(300)), "a forgotten address starts with a full bucket")
        #expect(limiter.trackedAddresses == 3)
    }
}
