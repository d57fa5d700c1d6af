import Foundation
import Synchronization
import StateSyncCore
import StateSyncProtocol
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct SyncEngineDispatchTests {
    @Test func ackFollowsThePatchesUpToItsRevision() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.subscribe(session: "s-a", id: "todos", path: pointer("/todos"))
        engine.dispatch(session: "s-a", id: "a1", action: addTodo("Milk"))
        let messages = await alice.waitForAnswer("a1")
        guard case .ack(_, let rev)? = messages.last else {
            Issue.record("expected an ack, got \(messages)")
            return
        }
        let patches = ServerMessage.patches(messages, for: "todos")
        #expect(patches.last?.rev == rev)
        #expect(patches.last?.ops == JSONPatch([.add(path: pointer("/0"), value: ["id": .string("t\(rev)"), "title": "Milk", "done": false])]))
        await engine.shutdown()
    }

    @Test func rejectionsLeaveStateAndRevisionUntouched() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.dispatch(session: "s-a", id: "a1", action: addTodo("Milk"))
        await alice.waitForAnswer("a1")
        let before = try await engine.value(at: "", session: "s-a", sink: alice)
        engine.dispatch(session: "s-a", id: "a2", action: ["type": "toggleTodo", "id": "nope"])
        engine.dispatch(session: "s-a", id: "a3", action: ["type": "launchRocket"])
        engine.dispatch(session: "s-a", id: "a4", action: addTodo(""))
        let messages = await alice.waitForAnswer("a4")
        let codes = messages.compactMap { message -> String? in
            if case let .reject(_, code, _) = message { return code.rawValue }
            return nil
        }
        #expect(codes == ["not_found", "invalid_action", "invalid_action"])
        let after = try await engine.value(at: "", session: "s-a", sink: alice)
        #expect(after.rev == before.rev)
        #expect(after.value == before.value)
        await engine.shutdown()
    }

    @Test func readersMayNotDispatch() async throws {
        let engine = try await boardEngine()
        let reader = engine.joinRecording("s-r", clientID: "c-r", role: .reader)
        engine.dispatch(session: "s-r", id: "a1", action: increment("hits"))
        let messages = await reader.waitForAnswer("a1")
        guard case let .reject(_, code, _)? = messages.last else {
            Issue.record("expected a reject, got \(messages)")
            return
        }
        #expect(code == .forbidden)
        await engine.shutdown()
    }

    @Test func repeatedPairGetsTheOriginalAnswerWithoutReapplying() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.dispatch(session: "s-a", id: "a1", action: increment("hits", by: 5))
        engine.dispatch(session: "s-a", id: "a1", action: increment("hits", by: 5))
        engine.dispatch(session: "s-a", id: "a2", action: ["type": "toggleTodo", "id": "nope"])
        engine.dispatch(session: "s-a", id: "a2", action: increment("hits", by: 5))
        let messages = await alice.waitForAnswer("a2")
        let answers = await alice.wait { $0.filter { $0.answerID != nil }.count == 4 }.filter { $0.answerID != nil }
        #expect(answers[0] == answers[1])
        #expect(answers[2] == answers[3])
        #expect(messages.contains { if case .reject = $0 { true } else { false } })
        let hits = try await engine.value(at: "/counters/hits", session: "s-a", sink: alice)
        #expect(hits.value == 5)
        await engine.shutdown()
    }

    @Test func exactlyOnceSurvivesReopeningTheJournal() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await boardEngine(journal: try await JournalKind.sqlite.make(in: directory))
            let alice = first.joinRecording("s-a", clientID: "c-a")
            first.dispatch(session: "s-a", id: "a1", action: increment("hits", by: 7))
            first.dispatch(session: "s-a", id: "a2", action: ["type": "removeTodo", "id": "t0"])
            let original = await alice.waitForAnswer("a2").filter { $0.answerID != nil }
            await first.shutdown()

            let second = try await boardEngine(journal: try await JournalKind.sqlite.make(in: directory))
            let again = second.joinRecording("s-b", clientID: "c-a")
            second.dispatch(session: "s-b", id: "a1", action: increment("hits", by: 7))
            second.dispatch(session: "s-b", id: "a2", action: ["type": "removeTodo", "id": "t0"])
            let repeated = await again.waitForAnswer("a2").filter { $0.answerID != nil }
            #expect(repeated == original)
            let hits = try await second.value(at: "/counters/hits", session: "s-b", sink: again)
            #expect(hits.value == 7)
            await second.shutdown()
        }
    }

    @Test func actionsArrivingTogetherShareJournalAppends() async throws {
        let journal = CountingJournal()
        let engine = try await boardEngine(journal: journal)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.dispatch(session: "s-a", id: "warm-up", action: increment("hits"))
        await alice.waitForAnswer("warm-up")
        let appendsBefore = journal.appends
        journal.hold()
        engine.dispatch(session: "s-a", id: "first", action: increment("hits"))
        for index in 0..<200 {
            engine.dispatch(session: "s-a", id: "a\(index)", action: increment("hits"))
        }
        // The first batch's fsync is held: everything after it accumulates.
        await journal.waitUntilHolding()
        journal.release()
        await alice.waitForAnswer("a199")
        #expect(journal.appends - appendsBefore <= 2)
        #expect(journal.entries >= 202)
        let hits = try await engine.value(at: "/counters/hits", session: "s-a", sink: alice)
        #expect(hits.value == 202)
        await engine.shutdown()
    }

    @Test func statisticsAndLatencyObserverSeeEveryAnswer() async throws {
        let latencies = Mutex<[Duration]>([])
        var configuration = engineConfiguration()
        configuration.answerLatencyObserver = { latency in latencies.withLock { $0.append(latency) } }
        let engine = try await boardEngine(configuration: configuration)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.dispatch(session: "s-a", id: "a1", action: increment("hits"))
        engine.dispatch(session: "s-a", id: "a2", action: ["type": "nope"])
        engine.dispatch(session: "s-a", id: "a1", action: increment("hits"))
        await alice.waitForAnswer("a2")
        _ = await alice.wait { $0.filter { $0.answerID == "a1" }.count == 2 }
        await engine.shutdown()
        let statistics = engine.statistics
        #expect(statistics.acceptedActions == 1)
        #expect(statistics.rejectedActions == 1)
        #expect(statistics.duplicateDispatches == 1)
        #expect(latencies.withLock { $0.count } == 3)
    }

    @Test func aFailedJournalWriteIsNeverAcked() async throws {
        let journal = CountingJournal()
        let engine = try await boardEngine(journal: journal)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.subscribe(session: "s-a", id: "hits", path: pointer("/counters/hits"))
        await alice.waitForAnswer("hits")
        journal.failAppends()
        engine.dispatch(session: "s-a", id: "a1", action: increment("hits"))
        engine.dispatch(session: "s-a", id: "a2", action: increment("hits"))
        let messages = await alice.waitForAnswer("a2")
        #expect(ServerMessage.patches(messages, for: "hits").isEmpty)
        for message in messages.filter({ $0.answerID?.hasPrefix("a") == true }) {
            guard case let .reject(_, code, _) = message else {
                Issue.record("expected internal_error, got \(message)")
                continue
            }
            #expect(code.rawValue == "internal_error")
        }
        #expect(try await engine.value(at: "/counters/hits", session: "s-a", sink: alice).value == .null)
        await engine.shutdown()
    }

    @Test func presenceFollowsJoinAndLeave() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        _ = engine.joinRecording("s-b")
        // Reads see durable revisions only: the ack of a later action
        // means both joins are published.
        engine.dispatch(session: "s-a", id: "sync1", action: increment("hits"))
        await alice.waitForAnswer("sync1")
        #expect(try await engine.value(at: "/presence", session: "s-a", sink: alice).value.objectKeys == ["s-a", "s-b"])
        engine.leave(session: "s-b")
        engine.dispatch(session: "s-a", id: "sync2", action: increment("hits"))
        await alice.waitForAnswer("sync2")
        #expect(try await engine.value(at: "/presence", session: "s-a", sink: alice).value.objectKeys == ["s-a"])
        await engine.shutdown()
    }
}

extension JSONValue {
    /// The keys of an object, sorted; empty for anything else.
    var objectKeys: [String] {
        guard case .object(let object) = self else { return [] }
        return object.keys.sorted()
    }
}
