import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
@testable import StateSyncServer
import Testing

/// A commit whose outcome is unknown (the connection to the shared store
/// was lost during `COMMIT`) loses no effect: the effects of entries that
/// did land run once the engine has read them back, as if the commit had
/// been acknowledged; what did not land is sequenced again (a client's
/// action when the client retries it, a command of the server's own by
/// the engine), and its effects run once then.
@Suite(.timeLimit(.minutes(1)))
struct UnknownCommitEffectsTests {
    @Test(arguments: [true, false])
    func anActionsEffectRunsOnceWhetherItsUnknownCommitLandedOrNot(landing: Bool) async throws {
        let question = "ask-action-\(landing ? "landed" : "lost")"
        let store = MemoryJournal()
        let journal = SharedMemoryJournal(store: store)
        let engine = try await keyValueEngine(journal: journal)
        let first = engine.joinRecording("s-1", clientID: "c1")
        _ = try await engine.value(at: "", session: "s-1", sink: first)
        journal.loseNextCommit(landing: landing) { batch in batch.entries.contains { $0.actionID == "q" } }
        engine.handle(.dispatch(id: "q", action: ["type": "put", "key": .string(question), "value": true]), from: "s-1")
        while first.closeReason == nil { _ = try await engine.value(at: "", session: "s-1", sink: first) }

        // The client retries on a new session: answered from the stored outcome, or applied now.
        let second = engine.joinRecording("s-2", clientID: "c1")
        engine.handle(.dispatch(id: "q", action: ["type": "put", "key": .string(question), "value": true]), from: "s-2")
        let answers = await second.waitForAnswer("q")
        #expect(answers.last.map { if case .ack = $0 { true } else { false } } == true, "\(answers)")

        let answer = try await Self.answer(to: question, on: engine, session: "s-2", sink: second)
        #expect(answer?.intValue != nil, "the effect's follow-up was journaled")
        #expect(KeyValueApp.effectRuns(of: question) == 1)
        #expect(try await Self.followUps(to: question, in: store) == 1)
        await engine.shutdown()
    }

    @Test(arguments: [true, false])
    func aFollowUpOfAnUnknownCommitIsStoredOnce(landing: Bool) async throws {
        let question = "ask-follow-up-\(landing ? "landed" : "lost")"
        let answerKey = "answer" + question.dropFirst("ask".count)
        let store = MemoryJournal()
        let journal = SharedMemoryJournal(store: store)
        let engine = try await keyValueEngine(journal: journal)
        let alice = engine.joinRecording("s-a", clientID: "c1")
        journal.loseNextCommit(landing: landing) { batch in
            batch.entries.contains { $0.actionID == nil && String(decoding: $0.action, as: UTF8.self).contains(answerKey) }
        }
        engine.handle(.dispatch(id: "q", action: ["type": "put", "key": .string(question), "value": true]), from: "s-a")
        await alice.waitForAnswer("q")

        let answer = try await Self.answer(to: question, on: engine, session: "s-a", sink: alice)
        #expect(answer?.intValue != nil, "the follow-up is in the state")
        #expect(try await Self.followUps(to: question, in: store) == 1)
        #expect(KeyValueApp.effectRuns(of: question) == 1)
        await engine.shutdown()
    }

    /// The value the effect answered `question` with, read until it is
    /// there or 5 seconds passed (each `get` is a round of the engine).
    private static func answer(
        to question: String, on engine: SyncEngine<KeyValueApp>, session: String, sink: RecordingSink
    ) async throws -> JSONValue? {
        let answerKey = "answer" + question.dropFirst("ask".count)
        let deadline = ContinuousClock.now + .seconds(5)
        var value = try await engine.value(at: "", session: session, sink: sink).value[answerKey]
        while value == nil, ContinuousClock.now < deadline {
            value = try await engine.value(at: "", session: session, sink: sink).value[answerKey]
        }
        return value
    }

    /// How many entries of `store` are the effect's follow-up to `question`.
    private static func followUps(to question: String, in store: MemoryJournal) async throws -> Int {
        let answerKey = "answer" + question.dropFirst("ask".count)
        return try await store.entries(from: 1, through: store.lastRevision).filter { entry in
            guard case .system(.put(let key, _))? = try? SessionCommandCoding.decode(entry.action, as: KeyValueApp.Action.self) else {
                return false
            }
            return key == answerKey
        }.count
    }
}
