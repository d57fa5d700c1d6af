import Testing
import StateSyncCore

// The store example of docs/store.md ("Reducers and the store"), kept here
// verbatim so that it compiles and does what the page says; the tests below
// also run the page's test-store, middleware, effects and recorder examples.
// Change both together.

enum ReadmeExample {
    struct Todo: Codable, Equatable, Identifiable, Sendable { var id: String; var title: String; var done = false }
    struct Board: Codable, Equatable, Sendable { var todos: [String: Todo] = [:]; var hits = 0 }

    enum BoardAction: Codable, Equatable, Sendable {
        case add(String)
        case todo(id: String, TodoAction)
        case hit
    }
    enum TodoAction: Codable, Equatable, Sendable { case toggle }

    static let reducer = CombineReducers {
        Reduce<Board, BoardAction> { state, action, meta in
            switch action {
            case .add(let title):
                guard !title.isEmpty else { throw Rejection(code: "invalid_action", message: "empty title") }
                state.todos["t\(meta.revision)"] = Todo(id: "t\(meta.revision)", title: title)
            case .hit: state.hits += 1
            case .todo: break
            }
        }
        // Runs only on the one element the action names, and tells the store so.
        ForEachElement(state: \Board.todos, action: { (action: BoardAction) -> (String, TodoAction)? in
            if case .todo(let id, let todoAction) = action { (id, todoAction) } else { nil }
        }) {
            Reduce<Todo, TodoAction> { todo, _, _ in todo.done.toggle() }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeStoreExampleTests {
    typealias Board = ReadmeExample.Board
    typealias Todo = ReadmeExample.Todo
    let reducer = ReadmeExample.reducer

    @Test func theExampleDoesWhatTheReadmeSays() async throws {
        let store = Store(initialState: Board(), revision: 0, reducer: reducer)
        store.send(.add("Milk"))
        let outcome = await store.dispatch(.add(""))
        #expect(throws: Rejection.self) { try outcome.get() }
        #expect(store.state.todos["t1"]?.title == "Milk")

        var todos = store.observe(\.todos, id: "t1").makeAsyncIterator()
        let first: Todo?? = await todos.next()
        #expect(first == .some(Todo(id: "t1", title: "Milk")))
        _ = await store.dispatch(.todo(id: "t1", .toggle))
        let second: Todo?? = await todos.next()
        #expect(second == .some(Todo(id: "t1", title: "Milk", done: true)))
    }

    @Test func theTestStoreExampleCatchesTheChange() async throws {
        let test = TestStore(initialState: Board(), reducer: reducer)
        try await test.send(.hit) { $0.hits = 1 }
        try await test.finish()
        await #expect(throws: TestStoreFailure.self) { try await test.send(.hit) { $0.hits = 5 } }
    }

    @Test func theMiddlewareEffectsAndRecorderExample() async throws {
        let recorder = Recorder(capacity: 1_000, reducer: reducer)
        let store = Store(
            initialState: Board(), revision: 0, reducer: reducer,
            middleware: [Validate { action, state, meta in /* throw a Rejection */ }, recorder],
            effects: Effects { action, state, meta in
                guard case .add = action else { return .none }
                return .run(id: EffectID("count-adds"), cancelInFlight: true) { send in await send(.hit) }
            })
        var hits = store.observe(\.hits).makeAsyncIterator()
        #expect(await hits.next() == 0)
        store.send(.add("Milk"))
        #expect(await hits.next() == 1)
        #expect(recorder.log().contains("/hits"))
        #expect(try recorder.state(at: 1).hits == 0)
        #expect(try recorder.state(at: 2).hits == 1)

        let panel = LocalStore(initialState: Board())
        panel.performStateUpdate { $0.hits = 7 }
        #expect(panel.state.hits == 7)
    }
}
