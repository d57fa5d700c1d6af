import StateSyncCore
@testable import StateSyncServer
import Synchronization
import Testing

/// The engine's queue holds at most its capacity of sessions' requests: a
/// session posting beyond it waits until the sequencer takes the queue.
@Suite(.timeLimit(.minutes(1)))
struct EngineInboxTests {
    private static func request(_ id: String) -> EngineEvent {
        .request(sessionID: "s-1", .unsubscribe(id: id), received: .now)
    }

    /// Set once the waiting request was posted.
    private final class Posted: Sendable {
        let flag = Atomic(false)
    }

    @Test func aRequestBeyondTheCapacityWaitsForTheSequencer() async {
        let inbox = EngineInbox(capacity: 2)
        #expect(await inbox.postRequest(Self.request("1")))
        #expect(await inbox.postRequest(Self.request("2")))
        // The engine's own events are never held.
        #expect(inbox.post(.leave(sessionID: "s-9")))
        let posted = Posted()
        let third = Task {
            let result = await inbox.postRequest(Self.request("3"))
            posted.flag.store(true, ordering: .releasing)
            return result
        }
        // Nothing to await: the third request must still be waiting after the others ran.
        for _ in 0..<100 { await Task.yield() }
        let postedEarly = posted.flag.load(ordering: .acquiring)
        #expect(!postedEarly)
        #expect(inbox.takeAll().count == 3)
        #expect(await third.value)
        #expect(inbox.takeAll().count == 1)
    }

    @Test func aWaitingRequestIsRefusedOnceTheEngineStops() async {
        let inbox = EngineInbox(capacity: 1)
        #expect(await inbox.postRequest(Self.request("1")))
        let second = Task { await inbox.postRequest(Self.request("2")) }
        for _ in 0..<100 { await Task.yield() }
        #expect(inbox.finish().count == 1)
        #expect(await second.value == false)
    }
}
