import Testing

@testable import StateSyncClient

@Suite struct ReconnectPolicyTests {
    @Test(arguments: [(1, 200), (2, 400), (3, 800), (4, 1_600), (5, 3_200), (6, 5_000), (40, 5_000)])
    func delayDoublesUpToTheMaximum(attempt: Int, milliseconds: Int64) {
        #expect(ReconnectPolicy().delay(forAttempt: attempt, random: 0) == .milliseconds(milliseconds))
    }

    @Test func jitterTakesOffAtMostItsShare() {
        let policy = ReconnectPolicy(jitter: 0.5)
        #expect(policy.delay(forAttempt: 1, random: 0.999_999) > .milliseconds(100))
        #expect(policy.delay(forAttempt: 1, random: 0.5) == .milliseconds(150))
        #expect(ReconnectPolicy(jitter: 0).delay(forAttempt: 3, random: 0.9) == .milliseconds(800))
    }

    @Test func randomDelaysSpreadOverTheJitterRange() {
        let delays = Set((0..<200).map { _ in ReconnectPolicy().delay(forAttempt: 2) })
        #expect(delays.count > 100)
        #expect(delays.allSatisfy { $0 > .milliseconds(200) && $0 <= .milliseconds(400) })
    }
}
