import OrderedCollections
import StateSyncCore
import Testing

@Suite("KeyedCollection conformances")
struct KeyedCollectionTests {
    private let todos = [Todo(id: "a", title: "A"), Todo(id: "b", title: "B"), Todo(id: "c", title: "C")]

    @Test func identifiedArrayIsKeyedByID() {
        var array = todos
        #expect(array.element(withKey: "b")?.title == "B")
        #expect(array.element(withKey: "z") == nil)
        #expect(array.updateElement(withKey: "c") { $0.title = "Cee" } != nil)
        #expect(array.updateElement(withKey: "z") { $0.title = "Zed" } == nil)
        #expect(array[2].title == "Cee")
        #expect(array.elements(withKeys: ["c", "z", "a"]).map { $0?.title } == ["Cee", nil, "A"])
    }

    @Test func dictionaryAndOrderedDictionaryAreKeyedByKey() {
        var dictionary = ["x": 1, "y": 2]
        var ordered: OrderedDictionary = ["x": 1, "y": 2]
        _ = dictionary.updateElement(withKey: "y") { $0 += 10 }
        _ = ordered.updateElement(withKey: "y") { $0 += 10 }
        #expect(dictionary.elements(withKeys: ["y", "q"]) == [12, nil])
        #expect(ordered.elements(withKeys: ["y", "q"]) == [12, nil])
        #expect(ordered.element(withKey: "x") == 1)
    }

    @Test func elementObserverOfAnArrayChangedWithoutFootprint() {
        let store = LocalStore(initialState: AppState(todos: todos))
        let seen = Collected<Todo?>()
        let token = store.subscribe(\.todos, id: "b") { seen.append($0) }
        store.performStateUpdate { $0.todos[0].done = true }
        store.performStateUpdate { $0.todos[1].title = "Bee" }
        store.performStateUpdate { $0.todos.remove(at: 1) }
        #expect(seen.all == [Todo(id: "b", title: "B"), Todo(id: "b", title: "Bee"), nil])
        token.cancel()
    }
}
