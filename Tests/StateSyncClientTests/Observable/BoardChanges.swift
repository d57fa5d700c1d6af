import BoardApp

/// Random changes of a board, as a server's reducer and other clients would make them.
enum BoardChanges {
    /// The names of the board's slices that differ between `old` and `new`.
    static func slices(differing old: BoardState, _ new: BoardState) -> Set<String> {
        var changed: Set<String> = []
        if old.todos != new.todos { changed.insert("todos") }
        if old.counters != new.counters { changed.insert("counters") }
        if old.chat != new.chat { changed.insert("chat") }
        if old.presence != new.presence { changed.insert("presence") }
        return changed
    }

    /// Changes one random thing in `board`: a todo, a counter, the chat or the presence.
    static func random(_ board: inout BoardState, step: Int, using random: inout some RandomNumberGenerator) {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: board.todos.append(Todo(id: "t\(step)-\(board.todos.count)", title: "todo \(step)"))
        case 1 where !board.todos.isEmpty: board.todos[Int.random(in: board.todos.indices, using: &random)].done.toggle()
        case 2 where !board.todos.isEmpty: board.todos[Int.random(in: board.todos.indices, using: &random)].title = "renamed \(step)"
        case 3 where !board.todos.isEmpty: board.todos.remove(at: Int.random(in: board.todos.indices, using: &random))
        case 4: board.counters["c\(Int.random(in: 0..<4, using: &random))", default: 0] += 1
        case 5: board.counters["c\(Int.random(in: 0..<4, using: &random))"] = nil
        case 6: board.chat.append(ChatMessage(from: "bob", text: "hi \(step)", at: "2026-11-27T10:00:00Z"))
        case 7: board.presence["s-\(Int.random(in: 0..<3, using: &random))"] = Presence(name: "p\(step)", since: "2026-11-27T10:00:00Z")
        default: board.presence["s-\(Int.random(in: 0..<3, using: &random))"] = nil
        }
    }

    /// A random action of this client's, on what it shows.
    static func randomAction(seeing board: BoardState, using random: inout some RandomNumberGenerator) -> BoardAction {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .addTodo(title: "mine")
        case 1: .toggleTodo(id: board.todos.randomElement(using: &random)?.id ?? "none")
        case 2: .increment(counter: "c\(Int.random(in: 0..<4, using: &random))", by: 1)
        default: .postMessage(text: "mine")
        }
    }
}
