@testable import StateSyncServer
import Testing

@Suite struct SnapshotPolicyTests {
    @Test func aSnapshotIsDueEveryNRevisionsAndCountsAsTaken() {
        var policy = SnapshotPolicy(every: 10, lastRevision: 5)
        #expect(!policy.take(at: 14))
        #expect(policy.take(at: 15))
        #expect(!policy.take(at: 15))
        #expect(!policy.take(at: 24))
        #expect(policy.take(at: 31))
        #expect(policy.lastRevision == 31)
    }

    @Test func theShutdownSnapshotIsTakenWhenAnythingIsNewOnly() {
        var policy = SnapshotPolicy(every: 1_000, lastRevision: 7)
        #expect(!policy.take(at: 7, force: true))
        #expect(policy.take(at: 8, force: true))
    }
}
