import BoardApp
import StateSyncCore
import StateSyncProtocol
import StateSyncServer

/// How many ~100-byte todos a benchmark board starts with.
protocol BoardSize: Sendable {
    static var todoCount: Int { get }
    static var label: String { get }
}

enum Size1KB: BoardSize { static let todoCount = 10; static let label = "1 KB" }
enum Size100KB: BoardSize { static let todoCount = 1_000; static let label = "100 KB" }
enum Size1MB: BoardSize { static let todoCount = 10_000; static let label = "1 MB" }
enum Size10MB: BoardSize { static let todoCount = 100_000; static let label = "10 MB" }

/// The board app starting with `Size.todoCount` todos.
enum SizedBoard<Size: BoardSize>: StateSyncApp {
    static var initialState: BoardState {
        var state = BoardState()
        state.todos = (0..<Size.todoCount).map { Todo(id: "t-init-\($0)", title: "a todo of about a hundred bytes, number \($0), padded") }
        return state
    }

    static var reducer: any Reducer<BoardState, SessionCommand<BoardAction>> { BoardReducer() }

    static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? { Board.jsonPointer(for: keyPath) }
}
