import BoardApp
import StateSyncClient

/// The to-do list: `[ ] t3  Milk`, in the order added; a todo of high or
/// low priority ends with `(high)` or `(low)`, and one that this terminal
/// changed and the server has not confirmed yet with `(pending)`.
struct TodosPanel: BoardPanel {
    static let id = PanelID.todos
    static let slice: any KeyPath<OptimisticView<BoardState>, PendingTodos> & Sendable = \.pendingTodos

    let todos: [Todo]
    let pendingIDs: Set<String>

    init(_ slice: PendingTodos) {
        todos = slice.todos
        pendingIDs = slice.pendingIDs
    }

    /// The panel of `todos`, those in `pending` marked.
    init(_ todos: [Todo], pending: Set<String> = []) {
        self.init(PendingTodos(todos: todos, pendingIDs: pending))
    }

    var title: String {
        let open = todos.count { !$0.done }
        return todos.isEmpty ? "Todos" : "Todos (\(open) open of \(todos.count))"
    }

    func lines(width: Int, height: Int) -> [String] {
        guard !todos.isEmpty else { return ["no todos yet: type  add Milk"] }
        let idWidth = todos.map(\.id.count).max() ?? 0
        return Self.clipped(todos.map { todo in
            let id = todo.id + String(repeating: " ", count: idWidth - todo.id.count)
            return "\(Self.box(todo)) \(id)  \(TerminalText.sanitize(todo.title))\(mark(todo))"
        }, height: height)
    }

    var summary: String {
        guard !todos.isEmpty else { return "todos: (none)" }
        return "todos: " + todos.map { "\(Self.box($0)) \($0.id) \(TerminalText.sanitize($0.title))\(mark($0))" }.joined(separator: ", ")
    }

    /// `  (high)` or `  (low)` for a todo of that priority, then
    /// `  (pending)` for one the server has not confirmed yet.
    private func mark(_ todo: Todo) -> String {
        let priority = todo.priority == .normal ? "" : "  (\(todo.priority.rawValue))"
        return priority + (pendingIDs.contains(todo.id) ? "  (pending)" : "")
    }

    private static func box(_ todo: Todo) -> String {
        todo.done ? "[x]" : "[ ]"
    }
}
