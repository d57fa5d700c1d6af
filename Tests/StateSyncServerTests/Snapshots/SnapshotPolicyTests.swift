@testable import StateSyncServer
import Testing

@Suite struct SnapshotPolicyTests {
    /// Whether the policy took a snapshot at each revision, in turn.
    private static func taken(_ policy: inout SnapshotPolicy, at revisions: [UInt64], force: Bool = false) -> [Bool] {
        revisions.map { policy.take(at: $0, force: force) }
    }

    @Test func aSnapshotIsDueEveryNRevisionsAndCountsAsTaken() {
        var policy = SnapshotPolicy(every: 10, lastRevision: 5)
        #expect(Self.taken(&policy, at: [14, 15, 15, 24, 31]) == [false, true, false, false, true])
        #expect(policy.lastRevision == 31)
    }

    @Test func theShutdownSnapshotIsTakenWhenAnythingIsNewOnly() {
        var policy = SnapshotPolicy(every: 1_000, lastRevision: 7)
        #expect(Self.taken(&policy, at: [7, 8], force: true) == [false, true])
    }
}
