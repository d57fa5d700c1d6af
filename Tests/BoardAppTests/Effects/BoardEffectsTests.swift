import BoardApp
import Foundation
import StateSyncCore
import Synchronization
import Testing

@Suite("Board.effects: dice", .timeLimit(.minutes(1)))
struct BoardEffectsTests {
    typealias F = BoardFixtures

    /// The commands the effect of `command` sends, run to the end on an ``EffectRunner``.
    private func followUps(of command: SessionCommand<BoardAction>) async -> [SessionCommand<BoardAction>] {
        let pipeline = ActionPipeline(reducer: BoardReducer(), effects: Board.effects)
        let meta = Meta(revision: 1, time: F.time)
        let sent = Mutex<[SessionCommand<BoardAction>]>([])
        let runner = EffectRunner<SessionCommand<BoardAction>>()
        runner.start(pipeline.effect(after: command, state: BoardState(), meta: meta)) { command in
            sent.withLock { $0.append(command) }
        }
        await runner.finished()
        return sent.withLock { $0 }
    }

    @Test("/roll and /roll N roll one die with 6 or N sides for the sender", arguments: [
        ("/roll", Int64(6)), ("  /roll  ", 6), ("/roll 20", 20), ("/roll\t2", 2), (" /roll 1000000 ", 1_000_000),
    ])
    func rolls(text: String, sides: Int64) async throws {
        let sent = await followUps(of: F.by(.postMessage(text: text), F.bob))
        try #require(sent.count == 1)
        guard case .system(.rolled(let by, let rolledSides, let result)) = sent[0] else {
            Issue.record("sent \(sent[0]), not a system rolled")
            return
        }
        #expect(by == "bob")
        #expect(rolledSides == sides)
        #expect((1...sides).contains(result))
    }

    @Test("any other text is plain chat and starts no effect", arguments: [
        "hi", "/roll 1", "/roll 0", "/roll -6", "/roll 1000001", "/roll six", "/roll 6 6", "/rolling", "roll 6", "/roll 6.0",
        "/roll ６",
    ])
    func plainChat(text: String) async {
        #expect(await followUps(of: F.by(.postMessage(text: text))).isEmpty)
    }

    @Test("commands other than a say start no effect")
    func otherCommands() async {
        #expect(await followUps(of: F.by(.addTodo(title: "/roll"))).isEmpty)
        #expect(await followUps(of: .sessionJoined(F.alice)).isEmpty)
        #expect(await followUps(of: .system(.postMessage(text: "/roll"))).isEmpty)
    }

    @Test("in a store, /roll adds the say and then the dice line to the chat")
    func storeRolls() async throws {
        let store = Store(
            initialState: BoardState(), reducer: BoardReducer(), effects: Board.effects,
            configuration: StoreConfiguration(clock: { F.time })
        )
        _ = await store.dispatch(F.by(.postMessage(text: "/roll 4")))
        await store.effectsFinished()
        let chat = store.state.chat
        try #require(chat.count == 2)
        #expect(chat[0] == ChatMessage(from: "alice-laptop", text: "/roll 4", at: F.timeText))
        #expect(chat[1].from == "dice")
        #expect(["1", "2", "3", "4"].map { "alice-laptop rolled \($0) (1-4)" }.contains(chat[1].text))
        #expect(store.revision == 2)
    }
}
