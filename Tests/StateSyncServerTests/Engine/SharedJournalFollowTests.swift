import BoardApp
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// Two engines on one shared store (``SharedMemoryJournal``): a batch
/// refused because the other moved the head is sequenced again after
/// catching up, a pair the other node decided is answered from its outcome,
/// an unknown commit is caught up in place, and both end on the same state.
@Suite(.timeLimit(.minutes(1)))
struct SharedJournalFollowTests {
    @Test func aRefusedBatchIsRedoneAndAPairDecidedElsewhereIsNotAppliedTwice() async throws {
        // B starts and writes (serverStarted, a join): A's view of the head is now stale.
        let nodes = try await StaleNode.make(bClientID: "c1")
        let (store, journalB, a, onA, b, onB, revisionOfY) = (nodes.store, nodes.journalB, nodes.a, nodes.onA, nodes.b, nodes.onB, nodes.revisionOfY)

        // On stale A: x is refused by the store, caught up and redone; y (a retry of B's pair) is answered from B's outcome.
        a.handle(.dispatch(id: "x", action: increment("hits")), from: "s-a")
        a.handle(.dispatch(id: "y", action: increment("hits")), from: "s-a")
        let answers = await onA.waitForAnswer("y")
        #expect(answers.contains { if case .ack("x", _) = $0 { true } else { false } }, "\(answers)")
        #expect(answers.last == .ack(id: "y", rev: revisionOfY))
        let entries = try await store.entries(from: 1, through: store.lastRevision)
        #expect(entries.map(\.revision) == Array(1...store.lastRevision), "contiguous")
        #expect(entries.filter { $0.actionID == "y" }.count == 1 && entries.filter { $0.actionID == "x" }.count == 1)

        journalB.announce()
        let stateA = try await Self.settledState(of: a, session: "s-a", sink: onA)
        let stateB = try await Self.settledState(of: b, session: "s-b", sink: onB)
        #expect(stateA.rev == store.lastRevision && stateB.rev == store.lastRevision)
        #expect(stateA.value == stateB.value)
        #expect(stateA.value["counters"]?["hits"] == 2)
        await a.shutdown()
        await b.shutdown()
    }

    @Test func anotherNodesLeaveOfASessionLiveHereIsCountedAndOneOfASessionGoneIsNot() async throws {
        let store = MemoryJournal()
        let (journalA, journalB) = (SharedMemoryJournal(store: store), SharedMemoryJournal(store: store))
        let a = try await boardEngine(journal: journalA)
        let onA = a.joinRecording("s-a", clientID: "c1")
        let b = try await boardEngine(journal: journalB)
        let onB = b.joinRecording("s-b", clientID: "c2")
        // As a claimer does: B journals `sessionLeft` for A's live s-a, and for a session nobody has.
        await b.removeSessions([SessionInfo(id: "s-a", name: "s-a"), SessionInfo(id: "s-gone", name: "s-gone")])
        b.handle(.dispatch(id: "after", action: increment("hits")), from: "s-b")
        await onB.waitForAnswer("after")   // acked once durable: the leaves before it are too

        journalA.announce()   // the hint A hears that the store moved
        let stateA = try await Self.settledState(of: a, session: "s-a", sink: onA)
        #expect(stateA.rev == store.lastRevision)
        #expect(a.liveSessionsRemovedElsewhere == 1)
        #expect(b.liveSessionsRemovedElsewhere == 0, "its own leaves are not another node's")
        await a.shutdown()
        await b.shutdown()
    }

    @Test(arguments: [true, false])
    func anUnknownCommitWithholdsItsAckAndTheEngineCatchesUpInPlace(landing: Bool) async throws {
        let store = MemoryJournal()
        let journal = SharedMemoryJournal(store: store)
        let engine = try await boardEngine(journal: journal)
        let first = engine.joinRecording("s-1", clientID: "c1")
        _ = try await engine.value(at: "", session: "s-1", sink: first)
        journal.loseNextCommit(landing: landing)
        engine.handle(.dispatch(id: "x", action: increment("hits")), from: "s-1")
        // Each `get` is a round of the engine: the lost commit is handled within a few.
        while first.closeReason == nil { _ = try await engine.value(at: "/counters", session: "s-1", sink: first) }
        #expect(!first.messages.contains { $0.answerID == "x" }, "no answer for an action whose commit's outcome is unknown")

        // The engine goes on: the client's retry on a new session gets x once, whether it landed or not.
        let second = engine.joinRecording("s-2", clientID: "c1")
        engine.handle(.dispatch(id: "x", action: increment("hits")), from: "s-2")
        engine.handle(.dispatch(id: "z", action: increment("hits")), from: "s-2")
        let answers = await second.waitForAnswer("z")
        #expect(answers.contains { if case .ack("x", _) = $0 { true } else { false } }, "\(answers)")
        #expect(answers.last.map { if case .ack = $0 { true } else { false } } == true, "\(answers)")
        let state = try await Self.settledState(of: engine, session: "s-2", sink: second)
        #expect(state.value["counters"]?["hits"] == 2)
        let entries = try await store.entries(from: 1, through: store.lastRevision)
        #expect(entries.filter { $0.actionID == "x" }.count == 1)
        #expect(entries.map(\.revision) == Array(1...store.lastRevision))
        await engine.shutdown()
    }

    /// The whole state once every event queued before the call is handled:
    /// a `get` after one answered, so a catch-up started by then is over.
    private static func settledState(
        of engine: SyncEngine<Board>, session: String, sink: RecordingSink
    ) async throws -> (rev: UInt64, value: JSONValue) {
        _ = try await engine.value(at: "", session: session, sink: sink)
        return try await engine.value(at: "", session: session, sink: sink)
    }
}
