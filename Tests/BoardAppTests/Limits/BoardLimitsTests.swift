import BoardApp
import StateSyncCore
import Testing

/// ``BoardLimits`` through ``BoardLimitsMiddleware`` in a store: what a full
/// board and long names get, that configured limits are honoured in both
/// directions, and that the reducer itself takes any count (replay).
@Suite("BoardLimits", .timeLimit(.minutes(1)))
struct BoardLimitsTests {
    typealias F = BoardFixtures

    private static func store(
        _ state: BoardState = BoardState(), limits: BoardLimits = BoardLimits()
    ) -> TestStore<BoardState, SessionCommand<BoardAction>> {
        TestStore(initialState: state, reducer: BoardReducer(), middleware: [BoardLimitsMiddleware(limits)], time: F.time)
    }

    private static func board(todos: Int, counters: Int) -> BoardState {
        BoardState(
            todos: (0..<todos).map { Todo(id: "x\($0)", title: "todo") },
            counters: Dictionary(uniqueKeysWithValues: (0..<counters).map { ("c\($0)", Int64(0)) }))
    }

    @Test("the defaults: 10,000 todos and counters, 100-character counter names, 32-character todo ids")
    func defaults() {
        let limits = BoardLimits()
        #expect([limits.maxTodos, limits.maxCounters, limits.maxCounterNameLength, limits.maxTodoIDLength] == [10_000, 10_000, 100, 32])
    }

    @Test("a full board takes no more todos or counters, but still changes the ones it has")
    func countLimits() async throws {
        let full = Self.board(todos: 10_000, counters: 10_000)
        let store = Self.store(full)
        let todo = try await store.sendRejected(F.by(.addTodo(title: "one more")))
        #expect(todo == Rejection(code: "limit_reached", message: "the board holds 10000 todos, its limit: remove some first"))
        let counter = try await store.sendRejected(F.by(.increment(counter: "new", by: 1)))
        #expect(counter == Rejection(code: "limit_reached", message: "the board holds 10000 counters, its limit"))
        let reset = try await store.sendRejected(F.by(.resetCounter(counter: "new")))
        #expect(reset.code == "limit_reached")
        #expect(store.state == full)
        try await store.send(F.by(.increment(counter: "c1", by: 1))) { $0.counters["c1"] = 1 }
        try await store.send(F.by(.toggleTodo(id: "x1"))) { $0.todos[1].done = true }
    }

    @Test("names and ids one character over the limit are refused, at the limit accepted", arguments: [false, true])
    func lengthLimits(system: Bool) async throws {
        let store = Self.store(BoardState(todos: [Todo(id: "t1", title: "Milk")]))
        func command(_ action: BoardAction) -> SessionCommand<BoardAction> { system ? .system(action) : F.by(action) }
        let longName = String(repeating: "é", count: 101)
        let longID = "t" + String(repeating: "9", count: 32)
        for action: BoardAction in [.increment(counter: longName, by: 1), .resetCounter(counter: longName)] {
            let rejection = try await store.sendRejected(command(action))
            #expect(rejection == .invalidAction("counter name is 101 characters long; the limit is 100"))
        }
        for action: BoardAction in [.toggleTodo(id: longID), .renameTodo(id: longID, title: "x"), .removeTodo(id: longID)] {
            let rejection = try await store.sendRejected(command(action))
            #expect(rejection == .invalidAction("todo id is 33 characters long; ids have at most 32"))
        }
        let name = String(longName.dropFirst())
        try await store.send(command(.increment(counter: name, by: 2))) { $0.counters[name] = 2 }
        let rejection = try await store.sendRejected(command(.toggleTodo(id: String(longID.dropLast()))))
        #expect(rejection.code == "not_found")
    }

    @Test("lowered limits refuse sooner; raised limits let the board go beyond the defaults")
    func configuredLimits() async throws {
        var lower = BoardLimits()
        lower.maxTodos = 2
        lower.maxCounters = 1
        lower.maxCounterNameLength = 3
        lower.maxTodoIDLength = 21
        let small = Self.store(limits: lower)
        try await small.send(F.by(.addTodo(title: "a"))) { $0.todos = [Todo(id: "t1", title: "a")] }
        try await small.send(F.by(.addTodo(title: "b"))) { $0.todos.append(Todo(id: "t2", title: "b")) }
        #expect(try await small.sendRejected(F.by(.addTodo(title: "c"))).message == "the board holds 2 todos, its limit: remove some first")
        #expect(try await small.sendRejected(F.by(.increment(counter: "four", by: 1))).message
            == "counter name is 4 characters long; the limit is 3")
        try await small.send(F.by(.increment(counter: "one", by: 1))) { $0.counters["one"] = 1 }
        #expect(try await small.sendRejected(F.by(.increment(counter: "two", by: 1))).code == "limit_reached")
        #expect(try await small.sendRejected(F.by(.removeTodo(id: String(repeating: "x", count: 22)))).message
            == "todo id is 22 characters long; ids have at most 21")

        var higher = BoardLimits()
        higher.maxTodos = 10_002
        higher.maxCounterNameLength = 200
        let large = Self.store(Self.board(todos: 10_000, counters: 0), limits: higher)
        try await large.send(F.by(.addTodo(title: "beyond"))) { $0.todos.append(Todo(id: "t1", title: "beyond")) }
        let name = String(repeating: "n", count: 200)
        try await large.send(F.by(.increment(counter: name, by: 1))) { $0.counters[name] = 1 }
    }

    @Test("the reducer alone takes any count and any length: a journal replays the same under any limits")
    func reducerHasNoLimits() async throws {
        let store = F.store(Self.board(todos: 10_000, counters: 10_000))
        let name = String(repeating: "c", count: 500)
        try await store.send(F.by(.addTodo(title: "more"))) { $0.todos.append(Todo(id: "t1", title: "more")) }
        try await store.send(F.by(.resetCounter(counter: name))) { $0.counters[name] = 0 }
    }

    @Test("presence passes the limits: joins are never refused by them")
    func lifecyclePasses() async throws {
        var none = BoardLimits()
        none.maxCounters = 1
        let store = Self.store(limits: none)
        try await store.send(.sessionJoined(F.alice)) {
            $0.presence[F.alice.id] = Presence(name: F.alice.name, since: F.timeText)
        }
    }
}
