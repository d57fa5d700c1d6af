import StateSyncJournal
@testable import StateSyncServer
import Testing

/// Which condition `/health` reports when several hold: shutdown first, then
/// a journal failed for good (with its reason), then a stopped engine, then
/// writes being retried.
@Suite(.timeLimit(.minutes(1)))
struct HealthStatusTests {
    static let retrying = JournalWriteFault(reason: "the disk is full", failures: 3)
    static let final = JournalWriteFault(reason: "PostgreSQL refused a write", failures: 1, isFinal: true)

    @Test(arguments: [
        (true, "engine stopped", final, "stopping", nil),
        (false, "engine stopped", final, "failed",
         "journal writes failed for good (PostgreSQL refused a write); its actions are refused until the server restarts"),
        (false, "engine stopped", retrying, "failed", "engine stopped"),
        (false, nil, final, "failed",
         "journal writes failed for good (PostgreSQL refused a write); its actions are refused until the server restarts"),
        (false, nil, retrying, "storage_failing", "journal writes are failing (the disk is full), 3 attempts so far; retrying"),
        (false, nil, nil, "ok", nil),
    ] as [(Bool, String?, JournalWriteFault?, String, String?)])
    func theFirstConditionThatHoldsDecides(
        stopping: Bool, stopReason: String?, fault: JournalWriteFault?, status: String, reason: String?
    ) {
        let health = HealthStatus(stopping: stopping, stopReason: stopReason, fault: fault, epoch: "e-1", rev: 7, connections: 2)
        #expect(health.status == status)
        #expect(health.reason == reason)
    }
}
