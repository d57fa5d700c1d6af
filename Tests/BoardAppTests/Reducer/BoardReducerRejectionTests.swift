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
    static let tooLongCounter = String(repeating: "c", count: 101)
    static let tooLongID = "t" + String(repeating: "9", count: 32)

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
        RejectCase(action: .increment(counter: "", by: 1), code: "invalid_action", message: "counter name must not be empty"),
        RejectCase(action: .increment(counter: "hits", by: 1_000_001), code: "invalid_action",
                   message: "by 1000001 is out of range: abs(by) must be at most 1000000"),
        RejectCase(action: .increment(counter: "hits", by: -1_000_001), code: "invalid_action",
                   message: "by -1000001 is out of range: abs(by) must be at most 1000000"),
        RejectCase(action: .increment(counter: "hits", by: .min), code: "invalid_action",
                   message: "by -9223372036854775808 is out of range: abs(by) must be at most 1000000"),
        RejectCase(action: .increment(counter: "max", by: 1), code: "invalid_action",
                   message: "counter max would overflow: 9223372036854775807 + 1"),
        RejectCase(action: .increment(counter: tooLongCounter, by: 1), code: "invalid_action",
                   message: "counter name is 101 characters long; the limit is 100"),
        RejectCase(action: .resetCounter(counter: tooLongCounter), code: "invalid_action",
                   message: "counter name is 101 characters long; the limit is 100"),
        RejectCase(action: .toggleTodo(id: tooLongID), code: "invalid_action", message: "todo id is 33 characters long; ids have at most 32"),
        RejectCase(action: .renameTodo(id: tooLongID, title: "x"), code: "invalid_action",
                   message: "todo id is 33 characters long; ids have at most 32"),
        RejectCase(action: .removeTodo(id: tooLongID), code: "invalid_action", message: "todo id is 33 characters long; ids have at most 32"),
        RejectCase(action: .say(text: ""), code: "invalid_action", message: "text must not be empty"),
        RejectCase(action: .say(text: tooLongText), code: "invalid_action", message: "text is 501 characters long; the limit is 500"),
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
        #expect(covered == ["addTodo", "toggleTodo", "renameTodo", "removeTodo", "increment", "resetCounter", "say", "rolled"])
    }

    @Test("a full board takes no more todos or counters, but still changes the ones it has")
    func countLimits() async throws {
        let full = BoardState(
            todos: (0..<BoardRules.maxTodos).map { Todo(id: "t\($0)", title: "todo") },
            counters: Dictionary(uniqueKeysWithValues: (0..<BoardRules.maxCounters).map { ("c\($0)", Int64(0)) }))
        let store = F.store(full)
        let todo = try await store.sendRejected(F.by(.addTodo(title: "one more")))
        #expect(todo == Rejection(code: "limit_reached", message: "the board holds 10000 todos, its limit: remove some first"))
        let counter = try await store.sendRejected(F.by(.increment(counter: "new", by: 1)))
        #expect(counter == Rejection(code: "limit_reached", message: "the board holds 10000 counters, its limit"))
        let reset = try await store.sendRejected(F.by(.resetCounter(counter: "new")))
        #expect(reset.code == "limit_reached")
        #expect(store.state == full)
        try await store.send(F.by(.increment(counter: "c1", by: 1))) { $0.counters["c1"] = 1 }
        try await store.send(F.by(.toggleTodo(id: "t1"))) { $0.todos[1].done = true }
    }

    @Test("a rejection becomes the protocol's reject message")
    func rejectMessage() async throws {
        let rejection = try await F.store().sendRejected(F.by(.toggleTodo(id: "nope")))
        let frame = MessageEncoder().encode(ServerMessage.reject(id: "a18", rejection: rejection))
        #expect(String(decoding: frame, as: UTF8.self)
            == #"{"type":"reject","id":"a18","code":"not_found","message":"no todo with id nope"}"#)
    }
}
