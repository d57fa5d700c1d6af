import BoardApp
import StateSyncCore
import StateSyncJournal
import StateSyncProtocol
import StateSyncServer

/// How many todos a todo benchmark board starts with.
protocol TodoCount: Sendable {
    static var count: Int { get }
}

enum Todos100: TodoCount { static let count = 100 }
enum Todos1000: TodoCount { static let count = 1_000 }
enum Todos5000: TodoCount { static let count = 5_000 }

/// The board app starting with `Count.count` todos, its todo actions
/// reporting the one todo they change (the board's own reducer).
enum TodoBoard<Count: TodoCount>: StateSyncApp {
    static var initialState: BoardState { todoBoard(Count.count) }
    static var reducer: any Reducer<BoardState, SessionCommand<BoardAction>> { BoardReducer() }
    static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? { Board.jsonPointer(for: keyPath) }
}

/// The same board with the footprint the board reducer reported before
/// element footprints of arrays: the whole `todos` field (the baseline).
enum WholeTodosBoard<Count: TodoCount>: StateSyncApp {
    static var initialState: BoardState { todoBoard(Count.count) }
    static var reducer: any Reducer<BoardState, SessionCommand<BoardAction>> { WholeTodosReducer() }
    static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? { Board.jsonPointer(for: keyPath) }
}

/// ``BoardReducer`` with every todo footprint widened to `\.todos`.
struct WholeTodosReducer: Reducer {
    func reduce(into state: inout BoardState, action: SessionCommand<BoardAction>, meta: Meta) throws(Rejection) -> Footprint {
        let footprint = try BoardReducer().reduce(into: &state, action: action, meta: meta)
        guard case .dispatch(let boardAction, _) = action else { return footprint }
        switch boardAction {
        case .addTodo, .toggleTodo, .renameTodo, .removeTodo: return .keyPath(\BoardState.todos)
        default: return footprint
        }
    }
}

private func todoBoard(_ count: Int) -> BoardState {
    BoardState(todos: (0..<count).map { Todo(id: "t-init-\($0)", title: "a todo of about a hundred bytes, number \($0), padded") })
}

/// Seconds per `addTodo` and per `toggleTodo` on `App`'s board, one action
/// at a time until its ack (each added todo is removed again, untimed, so
/// the board keeps its size), with a subscriber of `/todos` when `subscribed`.
func todoCosts<App: StateSyncApp>(_ app: App.Type, actions: Int, subscribed: Bool) async throws -> (add: Double, toggle: Double) {
    let engine = try await SyncEngine<App>(journal: MemoryJournal(), configuration: .init(snapshotEvery: 1 << 40), logger: quiet)
    let writer = BenchSink()
    let reader = BenchSink()
    _ = engine.join(session: SessionInfo(id: "writer", name: "writer"), clientID: "cw", role: .writer, sink: writer)
    if subscribed {
        _ = engine.join(session: SessionInfo(id: "reader", name: "reader"), clientID: nil, role: .reader, sink: reader)
        engine.handle(.subscribe(id: "todos", path: JSONPointer(tokens: ["todos"]), since: nil), from: "reader")
        await reader.wait(forTotal: 1)
    }
    var answers = 0
    func send(_ id: String, _ action: JSONObject) async -> Double {
        let start = now()
        engine.handle(.dispatch(id: id, action: action), from: "writer")
        answers += 1
        await writer.wait(forTotal: answers)
        return now() - start
    }
    var adding = 0.0
    var toggling = 0.0
    for index in 0..<actions {
        adding += await send("add\(index)", ["type": "addTodo", "title": "a todo of about a hundred bytes, added, padded to it"])
        let rev = try ackRevision(writer.lastFrame)
        toggling += await send("toggle\(index)", ["type": "toggleTodo", "id": .string("t-init-\((index * 7_919) % 100)")])
        _ = await send("remove\(index)", ["type": "removeTodo", "id": .string("t\(rev)")])
    }
    await engine.shutdown()
    return (adding / Double(actions), toggling / Double(actions))
}

/// The `rev` of an ack frame (a benchmark error, not a figure, when it is not one).
private func ackRevision(_ frame: [UInt8]) throws -> Int64 {
    let message = try JSONParser().parse(frame)
    guard message["type"] == "ack", case .integer(let rev)? = message["rev"] else {
        throw BenchmarkFailure(message: "expected an ack, got \(String(decoding: frame, as: UTF8.self))")
    }
    return rev
}

/// A benchmark run that went wrong.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
