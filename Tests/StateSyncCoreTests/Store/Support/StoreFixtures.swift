import Foundation
import Synchronization
import StateSyncCore

/// A small app used by the store tests: a counter, a label, keyed items and
/// identified todos, and an optional editor.
struct AppState: Equatable, Sendable, Codable {
    var count = 0
    var label = ""
    var items: [Int: Int] = [:]
    var todos: [Todo] = []
    var editor: Editor?
    var lastTime: Date?
}

struct Todo: Equatable, Sendable, Codable, Identifiable {
    var id: String
    var title: String
    var done = false
}

struct Editor: Equatable, Sendable, Codable {
    var text = ""
}

enum ItemAction: Equatable, Sendable, Codable {
    case add(Int)
    case reject
}

enum TodoAction: Equatable, Sendable, Codable {
    case toggle
    case rename(String)
}

enum AppAction: Equatable, Sendable, Codable {
    case increment
    case add(Int)
    case setLabel(String)
    /// Mutates the state, then rejects: the store must keep the old state.
    case mutateThenReject
    case stampTime
    case openEditor
    case item(Int, ItemAction)
    case todo(String, TodoAction)
    case edit(String)

    var itemAction: (Int, ItemAction)? {
        if case .item(let id, let action) = self { (id, action) } else { nil }
    }

    var todoAction: (String, TodoAction)? {
        if case .todo(let id, let action) = self { (id, action) } else { nil }
    }

    var editText: String? {
        if case .edit(let text) = self { text } else { nil }
    }
}

/// The app reducer: root actions in a `Reduce`, items and todos by key, the editor when present.
let appReducer = CombineReducers {
    Reduce<AppState, AppAction> { state, action, meta in
        switch action {
        case .increment:
            state.count += 1
        case .add(let amount):
            guard abs(amount) <= 1_000 else { throw Rejection.invalidAction("amount \(amount) is over 1000") }
            state.count += amount
        case .setLabel(let label):
            state.label = label
        case .mutateThenReject:
            state.count += 100
            state.label = "changed"
            throw Rejection(code: "refused", message: "after mutating")
        case .stampTime:
            state.lastTime = meta.time
        case .openEditor:
            state.editor = Editor()
        case .item, .todo, .edit:
            break
        }
    }
    ForEachElement(state: \AppState.items, action: \AppAction.itemAction) {
        Reduce<Int, ItemAction> { value, action, _ in
            switch action {
            case .add(let amount): value += amount
            case .reject:
                value = -1
                throw Rejection(code: "item_refused", message: "item refused")
            }
        }
    }
    ForEachElement(state: \AppState.todos, action: \AppAction.todoAction) {
        Reduce<Todo, TodoAction> { todo, action, _ in
            switch action {
            case .toggle: todo.done.toggle()
            case .rename(let title): todo.title = title
            }
        }
    }
    IfLet(state: \AppState.editor, action: \AppAction.editText) {
        Reduce<Editor, String> { editor, text, _ in editor.text = text }
    }
}

/// A store of the test app with a fixed clock.
func makeAppStore(
    _ state: AppState = AppState(),
    middleware: [any Middleware<AppState, AppAction>] = [],
    effects: Effects<AppState, AppAction>? = nil
) -> Store<AppState, AppAction> {
    Store(
        initialState: state,
        reducer: appReducer,
        middleware: middleware,
        effects: effects,
        configuration: StoreConfiguration(clock: { Date(timeIntervalSince1970: 1_000) })
    )
}

/// Values collected by a callback from any thread.
final class Collected<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] {
        values.withLock { $0 }
    }
}
