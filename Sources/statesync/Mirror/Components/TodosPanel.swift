import BoardApp

/// The to-do list: `[ ] t3  Milk`, in the order added.
struct TodosPanel: BoardPanel {
    static let id = PanelID.todos
    static let slice: any KeyPath<BoardState, [Todo]> & Sendable = \.todos

    let todos: [Todo]

    init(_ slice: [Todo]) {
        todos = slice
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
            return "\(Self.box(todo)) \(id)  \(TerminalText.sanitize(todo.title))"
        }, height: height)
    }

    var summary: String {
        guard !todos.isEmpty else { return "todos: (none)" }
        return "todos: " + todos.map { "\(Self.box($0)) \($0.id) \(TerminalText.sanitize($0.title))" }.joined(separator: ", ")
    }

    private static func box(_ todo: Todo) -> String {
        todo.done ? "[x]" : "[ ]"
    }
}
