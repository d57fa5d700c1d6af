import BoardApp
import StateSyncCore
import StateSyncProtocol
import Testing

/// One action the board must refuse, with the exact rejection.
struct RejectCase: CustomTestStringConvertible, Sendable {
    let action: BoardAction
    let code: String
    let message: String

    var testDescription: String { "\(action.type): \(message)" }
}

@Suite("BoardReducer: rejections", .timeLimit(.minutes(1)))
struct BoardReducerRejectionTests {
    typealias F = BoardFixtures

    static let tooLongTitle = String(repeating: "x", count: 201)
    static let tooLongText = String(repeating: "y", count: 501)

    static let cases: [RejectCase] = [
        RejectCase(action: .addTodo(title: ""), code: "invalid_action", message: "title must not be empty"),
        RejectCase(action: .addTodo(title: tooLongTitle), code: "invalid_action", message: "title is 201 characters long; the limit is 200"),
        RejectCase(action: .toggleTodo(id: "nope"), code: "not_found", message: "no todo with id nope"),
        RejectCase(action: .renameTodo(id: "nope", title: "x"), code: "not_found", message: "no todo with id nope"),
        RejectCase(action: .renameTodo(id: "t1", title: ""), code: "invalid_action", message: "title must not be empty"),
        RejectCase(action: .renameTodo(id: "t1", title: tooLongTitle), code: "invalid_action",
                   message: "title is 201 characters long; the limit is 200"),
        RejectCase(action: .renameTodo(id: "nope", title: ""), code: "invalid_action", message: "title must not be empty"),
        RejectCase(action: .removeTodo(id: "nope"), code: "not_found", message: "no todo with id nope"),
        RejectCase(action: .setPriority(id: "nope", priority: .high), code: "not_found", message: "no todo with id nope"),
        RejectCase(action: .increment(counter: "", by: 1), code: "invalid_action", message: "counter name must not be empty"),
        RejectCase(action: .increment(counter: "hits", by: 1_000_001), code: "invalid_action",
                   message: "by 1000001 is out of range: abs(by) must be at most 1000000"),
        RejectCase(action: .increment(counter: "hits", by: -1_000_001), code: "invalid_action",
                   message: "by -1000001 is out of range: abs(by) must be at most 1000000"),
        RejectCase(action: .increment(counter: "hits", by: .min), code: "invalid_action",
                   message: "by -9223372036854775808 is out of range: abs(by) must be at most 1000000"),
        RejectCase(action: .increment(counter: "max", by: 1), code: "invalid_action",
                   message: "counter max would overflow: 9223372036854775807 + 1"),
        RejectCase(action: .postMessage(text: ""), code: "invalid_action", message: "text must not be empty"),
        RejectCase(action: .postMessage(text: tooLongText), code: "invalid_action", message: "text is 501 characters long; the limit is 500"),
        RejectCase(action: .rolled(by: "alice-laptop", sides: 6, result: 6), code: "forbidden", message: "only the server rolls dice"),
    ]

    @Test("each rejected action leaves the state unchanged, with its exact code and message", arguments: cases)
    func rejects(_ rejectCase: RejectCase) async throws {
        let initial = BoardState(
            todos: [Todo(id: "t1", title: "Milk")],
            counters: ["hits": 3, "max": .max],
            chat: [ChatMessage(from: "bob", text: "hi", at: F.timeText)]
        )
        let store = F.store(initial)
        let rejection = try await store.sendRejected(F.by(rejectCase.action))
        #expect(rejection.code == rejectCase.code)
        #expect(rejection.message == rejectCase.message)
        #expect(store.state == initial)
        #expect(store.store.revision == 0)
    }

    @Test("every action kind with a reject row in the protocol's table is covered")
    func coverage() {
        let covered = Set(Self.cases.map(\.action.type))
        // resetCounter's rejects are limits (BoardLimitsTests).
        #expect(covered == ["addTodo", "toggleTodo", "renameTodo", "removeTodo", "increment", "postMessage", "setPriority", "rolled"])
    }

    @Test("a rejection becomes the protocol's reject message")
    func rejectMessage() async throws {
        let rejection = try await F.store().sendRejected(F.by(.toggleTodo(id: "nope")))
        let frame = MessageEncoder().encode(ServerMessage.reject(id: "a18", rejection: rejection))
        #expect(String(decoding: frame, as: UTF8.self)
            == #"{"type":"reject","id":"a18","code":"not_found","message":"no todo with id nope"}"#)
    }
}
