import StateSyncJournal
import Synchronization
import Foundation
import Logging
import MetricsTestKit
import BoardApp
import StateSyncCore
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// The server runs the store's pipeline: middleware around the reducer for
/// every command, and the app's effects, whose follow-ups are journaled.
@Suite(.timeLimit(.minutes(1)))
struct EnginePipelineTests {
    @Test func aMiddlewaresRejectionAnswersTheDispatchWithItsCodeAndChangesNothing() async throws {
        let readOnly = Validate<JSONValue, SessionCommand<KeyValueApp.Action>> { command, _, _ in
            if case .dispatch(.put(key: "locked", _), _) = command { throw Rejection(code: "locked", message: "key locked is read-only") }
        }
        let engine = try await keyValueEngine(journal: MemoryJournal(), middleware: [readOnly])
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.dispatch(id: "a1", action: ["type": "put", "key": "locked", "value": 1]), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: ["type": "put", "key": "open", "value": 2]), from: "s-a")
        let messages = await alice.waitForAnswer("a2")
        #expect(messages.contains(.reject(id: "a1", code: RejectCode(rawValue: "locked"), message: "key locked is read-only")))
        let state = try await engine.value(at: "", session: "s-a", sink: alice)
        #expect(state.value == ["open": 2])
        await engine.shutdown()
    }

    @Test func middlewareSeesEveryCommandClientsAndTheServersOwn() async throws {
        let metrics = TestMetrics()
        let engine = try await keyValueEngine(
            journal: MemoryJournal(), middleware: [ActionMetricsMiddleware<KeyValueApp>(factory: metrics)])
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.dispatch(id: "a1", action: ["type": "put", "key": "k", "value": 1]), from: "s-a")
        engine.handle(.dispatch(id: "a2", action: ["type": "delete", "key": "nothing"]), from: "s-a")
        await alice.waitForAnswer("a2")
        await engine.shutdown()
        #expect(metrics.counterTotal(label: "statesync_actions_total", dimensions: [("type", "put"), ("outcome", "accepted")]) == 1)
        #expect(metrics.counterTotal(label: "statesync_actions_total", dimensions: [("type", "delete"), ("outcome", "not_found")]) == 1)
        #expect(metrics.counterTotal(label: "statesync_actions_total", dimensions: [("type", "sessionJoined"), ("outcome", "accepted")]) == 1)
    }

    @Test func serverStartedIsJournaledOnlyOverAStoredHistoryItChanges() async throws {
        let journal = CountingJournal(forwardsClose: false)
        let fresh = try await boardEngine(journal: journal)
        let alice = fresh.joinRecording("s-a", clientID: "c-a")
        fresh.handle(.dispatch(id: "a1", action: addTodo("Milk")), from: "s-a")
        await alice.waitForAnswer("a1")
        await fresh.shutdown()   // as a crash would: s-a never left

        let afterCrash = try await boardEngine(journal: journal)
        let bob = afterCrash.joinRecording("s-b", clientID: "c-b")
        afterCrash.handle(.dispatch(id: "b1", action: addTodo("Eggs")), from: "s-b")
        await bob.waitForAnswer("b1")
        #expect(try await afterCrash.value(at: "/presence", session: "s-b", sink: bob).value.objectKeys == ["s-b"])
        afterCrash.leave(session: "s-b")
        await afterCrash.shutdown()
        let closedAt = journal.lastRevision

        // Every session left: serverStarted would change nothing, so the store reopens at the revision it closed at.
        let afterClose = try await boardEngine(journal: journal)
        let carol = afterClose.joinRecording("s-c", clientID: "c-c")
        let joined = try await afterClose.value(at: "/presence", session: "s-c", sink: carol)
        #expect(joined.rev == closedAt + 1, "only s-c's join follows the revision the store closed at")
        await afterClose.shutdown()

        let story = try await journal.entries(from: 1, through: journal.lastRevision).map { entry -> String in
            switch try SessionCommandCoding.decode(entry.action, as: BoardAction.self) {
            case .serverStarted: "serverStarted"
            case .sessionJoined(let session): "join \(session.id)"
            case .sessionLeft(let session): "leave \(session.id)"
            case .dispatch, .system: "action"
            }
        }
        // A fresh journal has no session from before to forget; after the crash s-a is forgotten, first of all.
        #expect(story == ["join s-a", "action", "serverStarted", "join s-b", "action", "leave s-b", "join s-c"])
    }

    /// Its key is its own (`ask-replay`): the effect's run count is per key and process-wide, and other suites run in parallel.
    @Test func anEffectsFollowUpIsJournaledAsASystemCommandAndReplayNeverRunsTheEffect() async throws {
        let journal = CountingJournal(forwardsClose: false)
        let engine = try await keyValueEngine(journal: journal)
        let alice = engine.joinRecording("s-a", clientID: "c-a")
        engine.handle(.subscribe(id: "answer", path: pointer("/answer-replay"), since: nil), from: "s-a")
        engine.handle(.dispatch(id: "a1", action: ["type": "put", "key": "ask-replay", "value": true]), from: "s-a")
        _ = await alice.wait { !ServerMessage.patches($0, for: "answer").isEmpty }
        let answered = try await engine.value(at: "/answer-replay", session: "s-a", sink: alice)
        #expect(answered.value.intValue != nil)
        await engine.shutdown()
        let runsBefore = KeyValueApp.effectRuns(of: "ask-replay")

        let entries = try await journal.entries(from: 1, through: journal.lastRevision)
        let system = entries.filter { (try? SessionCommandCoding.decode($0.action, as: KeyValueApp.Action.self))?.isSystem == true }
        #expect(system.count == 1)
        #expect(system.first?.meta.clientID == nil)

        let restarted = try await keyValueEngine(journal: journal)
        let bob = restarted.joinRecording("s-b")
        let replayed = try await restarted.value(at: "/answer-replay", session: "s-b", sink: bob)
        #expect(replayed.value == answered.value)
        await restarted.shutdown()
        #expect(KeyValueApp.effectRuns(of: "ask-replay") == runsBefore)
    }
}

extension SessionCommand {
    /// Whether this is a ``system(_:)`` command.
    var isSystem: Bool {
        if case .system = self { return true }
        return false
    }
}
