import BoardApp
import Foundation
import StateSyncCore
import StateSyncProtocol
import Testing

@Suite("BoardReducer: accepted actions", .timeLimit(.minutes(1)))
struct BoardReducerTests {
    typealias F = BoardFixtures

    @Test("addTodo appends t<rev>, not done")
    func addTodo() async throws {
        let store = F.store()
        try await store.send(F.by(.addTodo(title: "Milk"))) {
            $0.todos = [Todo(id: "t1", title: "Milk", done: false)]
        }
        try await store.send(F.by(.increment(counter: "hits", by: 1))) { $0.counters["hits"] = 1 }
        try await store.send(F.by(.addTodo(title: "Eggs"))) {
            $0.todos.append(Todo(id: "t3", title: "Eggs"))
        }
    }

    @Test("toggleTodo flips done, both ways")
    func toggleTodo() async throws {
        let store = F.store(F.threeTodos)
        try await store.send(F.by(.toggleTodo(id: "t1"))) { $0.todos[0].done = true }
        try await store.send(F.by(.toggleTodo(id: "t2"))) { $0.todos[1].done = false }
        try await store.send(F.by(.toggleTodo(id: "t1"))) { $0.todos[0].done = false }
    }

    @Test("renameTodo sets the title only")
    func renameTodo() async throws {
        let store = F.store(F.threeTodos)
        try await store.send(F.by(.renameTodo(id: "t2", title: "Rye bread"))) { $0.todos[1].title = "Rye bread" }
    }

    @Test("removeTodo removes that todo only")
    func removeTodo() async throws {
        let store = F.store(F.threeTodos)
        try await store.send(F.by(.removeTodo(id: "t2"))) { $0.todos.remove(at: 1) }
        try await store.send(F.by(.removeTodo(id: "t3"))) { $0.todos.remove(at: 1) }
    }

    @Test("clearCompleted removes the done todos, and is accepted when there are none")
    func clearCompleted() async throws {
        let store = F.store(F.threeTodos)
        try await store.send(F.by(.clearCompleted)) { $0.todos.remove(at: 1) }
        let meta = try await store.send(F.by(.clearCompleted))
        #expect(meta.revision == 2)
    }

    @Test("increment adds by (default 1, negative allowed), from 0 for a new counter")
    func increment() async throws {
        let store = F.store()
        let byDefault = try BoardAction(wireValue: ["type": "increment", "counter": "hits"])
        try await store.send(F.by(byDefault)) { $0.counters["hits"] = 1 }
        try await store.send(F.by(.increment(counter: "hits", by: 1_000_000))) { $0.counters["hits"] = 1_000_001 }
        try await store.send(F.by(.increment(counter: "hits", by: -1_000_000))) { $0.counters["hits"] = 1 }
        try await store.send(F.by(.increment(counter: "misses", by: -3))) { $0.counters["misses"] = -3 }
        try await store.send(F.by(.increment(counter: "hits", by: 0)))
    }

    @Test("resetCounter sets to 0, creating the counter when absent")
    func resetCounter() async throws {
        let store = F.store(BoardState(counters: ["hits": 12]))
        try await store.send(F.by(.resetCounter(counter: "hits"))) { $0.counters["hits"] = 0 }
        try await store.send(F.by(.resetCounter(counter: "new"))) { $0.counters["new"] = 0 }
    }

    @Test("setPriority sets that todo's priority only, a todo being normal until then")
    func setPriority() async throws {
        let store = F.store(F.threeTodos)
        #expect(store.state.todos.allSatisfy { $0.priority == .normal })
        try await store.send(F.by(.setPriority(id: "t2", priority: .high))) { $0.todos[1].priority = .high }
        try await store.send(F.by(.setPriority(id: "t2", priority: .low))) { $0.todos[1].priority = .low }
        try await store.send(F.by(.setPriority(id: "t2", priority: .low)))
    }

    @Test("postMessage appends from the session's name at Meta.time")
    func postMessage() async throws {
        let store = F.store()
        try await store.send(F.by(.postMessage(text: "hi"))) {
            $0.chat = [ChatMessage(from: "alice-laptop", text: "hi", at: F.timeText)]
        }
        try await store.send(F.by(.postMessage(text: "hello"), F.bob)) {
            $0.chat.append(ChatMessage(from: "bob", text: "hello", at: F.timeText))
        }
    }

    @Test("say keeps the last 100 messages")
    func chatHistory() async throws {
        let old = (1...100).map { ChatMessage(from: "bob", text: "m\($0)", at: F.timeText) }
        let store = F.store(BoardState(chat: old))
        try await store.send(F.by(.postMessage(text: "m101"))) {
            $0.chat.removeFirst()
            $0.chat.append(ChatMessage(from: "alice-laptop", text: "m101", at: F.timeText))
        }
        #expect(store.state.chat.count == 100)
        #expect(store.state.chat.first?.text == "m2")
    }

    @Test("sessionJoined and sessionLeft write presence; serverStarted clears it")
    func presence() async throws {
        let store = F.store()
        try await store.send(.sessionJoined(F.alice)) {
            $0.presence["s-91"] = Presence(name: "alice-laptop", since: F.timeText)
        }
        try await store.send(.sessionJoined(F.bob)) {
            $0.presence["s-92"] = Presence(name: "bob", since: F.timeText)
        }
        try await store.send(.sessionLeft(F.alice)) { $0.presence["s-91"] = nil }
        try await store.send(.serverStarted) { $0.presence = [:] }
    }

    @Test("session commands change nothing but presence")
    func presenceOnly() async throws {
        let store = F.store(F.threeTodos)
        try await store.send(.sessionJoined(F.bob)) { $0.presence["s-92"] = Presence(name: "bob", since: F.timeText) }
        try await store.send(.sessionLeft(SessionInfo(id: "s-unknown", name: "x")))
    }

    @Test("times with a fraction of a second keep milliseconds")
    func fractionalTime() async throws {
        let time = Date(timeIntervalSince1970: 1_795_255_200.25)
        let store = TestStore(initialState: BoardState(), reducer: BoardReducer(), time: time)
        try await store.send(F.by(.postMessage(text: "hi"))) {
            $0.chat = [ChatMessage(from: "alice-laptop", text: "hi", at: "2026-11-21T10:00:00.250Z")]
        }
    }
}
