import BoardApp
import StateSyncCore
import Testing

@Suite("BoardReducer: dice and system commands", .timeLimit(.minutes(1)))
struct BoardReducerDiceTests {
    typealias F = BoardFixtures

    @Test("a system rolled appends the dice line at Meta.time")
    func systemRolled() async throws {
        let store = F.store()
        try await store.send(.system(.rolled(by: "alice-laptop", sides: 20, result: 17))) {
            $0.chat = [ChatMessage(from: "dice", text: "alice-laptop rolled 17 (1-20)", at: F.timeText)]
        }
    }

    @Test("dice lines count towards the last 100 messages")
    func chatHistory() async throws {
        let old = (1...100).map { ChatMessage(from: "bob", text: "m\($0)", at: F.timeText) }
        let store = F.store(BoardState(chat: old))
        try await store.send(.system(.rolled(by: "bob", sides: 6, result: 1))) {
            $0.chat.removeFirst()
            $0.chat.append(ChatMessage(from: "dice", text: "bob rolled 1 (1-6)", at: F.timeText))
        }
        #expect(store.state.chat.count == 100)
    }

    @Test("a system rolled with an impossible die or result is invalid_action", arguments: [
        (Int64(1), Int64(1), "a die has 2 to 1000000 sides, not 1"),
        (1_000_001, 5, "a die has 2 to 1000000 sides, not 1000001"),
        (6, 0, "a 6-sided die cannot roll 0"),
        (6, 7, "a 6-sided die cannot roll 7"),
    ])
    func impossibleRoll(sides: Int64, result: Int64, message: String) async throws {
        let store = F.store()
        let rejection = try await store.sendRejected(.system(.rolled(by: "bob", sides: sides, result: result)))
        #expect(rejection == .invalidAction(message))
        #expect(store.state == BoardState())
    }

    @Test("any other system action is reduced as if the session named server sent it")
    func otherSystemAction() async throws {
        let store = F.store()
        try await store.send(.system(.postMessage(text: "restarting at noon"))) {
            $0.chat = [ChatMessage(from: "server", text: "restarting at noon", at: F.timeText)]
        }
        let rejection = try await store.sendRejected(.system(.postMessage(text: "")))
        #expect(rejection == .invalidAction("text must not be empty"))
    }
}
