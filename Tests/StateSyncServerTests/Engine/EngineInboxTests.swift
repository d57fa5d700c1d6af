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

    /// How many times something happened.
    private final class Count: Sendable {
        let value = Atomic(0)
        var count: Int { value.load(ordering: .relaxed) }
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
        #expect(inbox.nextRound()?.count == 3)
        #expect(await third.value)
        #expect(inbox.nextRound()?.count == 1)
    }

    @Test func aWaitingRequestIsRefusedOnceTheEngineStops() async {
        let inbox = EngineInbox(capacity: 1)
        #expect(await inbox.postRequest(Self.request("1")))
        let second = Task { await inbox.postRequest(Self.request("2")) }
        for _ in 0..<100 { await Task.yield() }
        #expect(inbox.finish().count == 1)
        #expect(await second.value == false)
    }

    @Test func anEventLoopSessionIsToldWhenTheQueueHasRoomAgain() {
        let full = Count()
        let inbox = EngineInbox(capacity: 1) { full.value.add(1, ordering: .relaxed) }
        let told = Count()
        inbox.whenRoomForRequests { told.value.add(1, ordering: .relaxed) }
        #expect(told.count == 1, "not told at once while the queue has room")

        #expect(inbox.postRequestIfRoom(Self.request("1")) == true)
        #expect(inbox.postRequestIfRoom(Self.request("2")) == nil)
        inbox.whenRoomForRequests { told.value.add(1, ordering: .relaxed) }
        #expect(told.count == 1, "told of room while the queue is full")
        #expect(inbox.nextRound()?.count == 1)
        #expect(told.count == 2, "not told once the sequencer took the queue")
        #expect(inbox.postRequestIfRoom(Self.request("2")) == true)
        #expect(full.count == 2, "each call for a request that found the queue full is counted")
    }

    @Test func anEventLoopSessionWaitingForRoomIsToldWhenTheEngineStops() {
        let inbox = EngineInbox(capacity: 1)
        #expect(inbox.postRequestIfRoom(Self.request("1")) == true)
        let told = Posted()
        inbox.whenRoomForRequests { told.flag.store(true, ordering: .relaxed) }
        let toldEarly = told.flag.load(ordering: .relaxed)
        #expect(!toldEarly)
        #expect(inbox.finish().count == 1)
        let toldAtStop = told.flag.load(ordering: .relaxed)
        #expect(toldAtStop)
        #expect(inbox.postRequestIfRoom(Self.request("2")) == false)
    }

    @Test func aRunStartsWhenAnEventFindsTheInboxIdleAndEndsWithTheQueue() {
        let inbox = EngineInbox()
        let runs = Count()
        inbox.start { runs.value.add(1, ordering: .relaxed) }
        #expect(runs.count == 1, "the first run (the engine's start) did not start at once")
        #expect(inbox.post(.leave(sessionID: "s-1")))
        #expect(runs.count == 1, "an event posted while a run goes started another")
        #expect(inbox.nextRound()?.count == 1)
        #expect(inbox.nextRound() == nil)
        #expect(inbox.post(.leave(sessionID: "s-2")))
        #expect(runs.count == 2, "an event posted to an idle inbox started no run")
        #expect(inbox.post(.leave(sessionID: "s-3")))
        #expect(runs.count == 2)
        #expect(inbox.finish().count == 2)
        #expect(!inbox.post(.leave(sessionID: "s-4")))
        #expect(runs.count == 2, "an event refused after the engine stopped started a run")
    }

    @Test func shutdownWaitsForTheFinish() async {
        let inbox = EngineInbox()
        let waiting = Task { await inbox.finished() }
        for _ in 0..<100 { await Task.yield() }
        _ = inbox.finish()
        await waiting.value
        await inbox.finished()
    }
}
