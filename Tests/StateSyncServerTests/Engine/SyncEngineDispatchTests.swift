import StateSyncJournal
import TestProcessSupport
import Foundation
import Synchronization
import StateSyncCore
import StateSyncProtocol
import MetricsTestKit
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct SyncEngineDispatchTests {
    @Test func ackFollowsThePatchesUpToItsRevision() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "todos", path: pointer("/todos"), since: nil), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: addTodo("Milk")), from: "s-a")
        let messages = await alice.waitForAnswer("a1")
        guard case .ack(_, let rev)? = messages.last else {
            Issue.record("expected an ack, got \(messages)")
            return
        }
        let patches = ServerMessage.patches(messages, for: "todos")
        #expect(patches.last?.rev == rev)
        #expect(patches.last?.ops == JSONPatch([.add(path: pointer("/0"), value: ["id": .string("t\(rev)"), "title": "Milk", "done": false, "priority": "normal"])]))
        await engine.shutdown()
    }

    @Test func rejectionsLeaveStateAndRevisionUntouched() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.dispatch(id: "a1", action: addTodo("Milk")), from: "s-a")
        await alice.waitForAnswer("a1")
        let before = try await engine.value(at: "", session: "s-a", sink: alice)
        engine.handle(.dispatch(id: "a2", action: ["type": "toggleTodo", "id": "nope"]), from: "s-a")
        engine.handle(.dispatch(id: "a3", action: ["type": "launchRocket"]), from: "s-a")
        engine.handle(.dispatch(id: "a4", action: addTodo("")), from: "s-a")
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
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-r")
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
        engine.handle(.dispatch(id: "a1", action: increment("hits", by: 5)), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: increment("hits", by: 5)), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: ["type": "toggleTodo", "id": "nope"]), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: increment("hits", by: 5)), from: "s-a")
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
            first.handle(.dispatch(id: "a1", action: increment("hits", by: 7)), from: "s-a")
            first.handle(.dispatch(id: "a2", action: ["type": "removeTodo", "id": "t0"]), from: "s-a")
            let original = await alice.waitForAnswer("a2").filter { $0.answerID != nil }
            await first.shutdown()

            let second = try await boardEngine(journal: try await JournalKind.sqlite.make(in: directory))
            let again = second.joinRecording("s-b", clientID: "c-a")
            second.handle(.dispatch(id: "a1", action: increment("hits", by: 7)), from: "s-b")
            second.handle(.dispatch(id: "a2", action: ["type": "removeTodo", "id": "t0"]), from: "s-b")
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
        engine.handle(.dispatch(id: "warm-up", action: increment("hits")), from: "s-a")
        await alice.waitForAnswer("warm-up")
        let appendsBefore = journal.appends
        journal.hold()
        engine.handle(.dispatch(id: "first", action: increment("hits")), from: "s-a")
        for index in 0..<200 {
            engine.handle(.dispatch(id: "a\(index)", action: increment("hits")), from: "s-a")
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

    @Test func metricsCountAndTimeEveryAnswer() async throws {
        let metrics = TestMetrics()
        let engine = try await boardEngine(metrics: metrics)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: ["type": "nope"]), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        await alice.waitForAnswer("a2")
        _ = await alice.wait { $0.filter { $0.answerID == "a1" }.count == 2 }
        await engine.shutdown()
        #expect(try metrics.expectCounter("statesync_actions_accepted_total").totalValue == 1)
        #expect(try metrics.expectCounter("statesync_actions_rejected_total").totalValue == 1)
        #expect(try metrics.expectCounter("statesync_actions_duplicate_total").totalValue == 1)
        #expect(try metrics.expectCounter("statesync_journal_appends_total").totalValue >= 1)
        #expect(try metrics.expectTimer("statesync_dispatch_ack_seconds").values.count == 3)
    }

    @Test func aFailedJournalWriteIsNeverAcked() async throws {
        let journal = CountingJournal()
        let engine = try await boardEngine(journal: journal)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "hits", path: pointer("/counters/hits"), since: nil), from: "s-a")
        await alice.waitForAnswer("hits")
        journal.failAppends()
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: increment("hits")), from: "s-a")
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

    @Test func aCommitWithAnUnknownOutcomeIsNeitherAckedNorRejected() async throws {
        let journal = CountingJournal()
        let engine = try await boardEngine(journal: journal)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        let bob = engine.joinRecording("s-b", clientID: "c-b")
        engine.handle(.dispatch(id: "sync", action: increment("hits")), from: "s-a")
        await alice.waitForAnswer("sync")
        journal.failAppends(with: .commitOutcomeUnknown("db", "connection reset during COMMIT"))
        engine.handle(.dispatch(id: "a1", action: increment("hits")), from: "s-a")
        engine.handle(.dispatch(id: "b1", action: ["type": "nope"]), from: "s-b")
        // The rejection is true whatever the commit did; it is answered, after
        // the failed commit of a1 was handled (the engine takes events in order).
        await bob.waitForAnswer("b1")
        #expect(bob.closeReason == nil)
        // The accepted action may or may not be stored: no answer, and the session is closed so its client retries.
        #expect(alice.closeReason?.contains("send it again") == true)
        #expect(alice.messages.allSatisfy { $0.answerID != "a1" }, "\(alice.messages)")
        await engine.shutdown()
    }

    @Test func presenceFollowsJoinAndLeave() async throws {
        let engine = try await boardEngine()
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        _ = engine.joinRecording("s-b")
        // Reads see durable revisions only: the ack of a later action
        // means both joins are published.
        engine.handle(.dispatch(id: "sync1", action: increment("hits")), from: "s-a")
        await alice.waitForAnswer("sync1")
        #expect(try await engine.value(at: "/presence", session: "s-a", sink: alice).value.objectKeys == ["s-a", "s-b"])
        engine.leave(session: "s-b")
        engine.handle(.dispatch(id: "sync2", action: increment("hits")), from: "s-a")
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
