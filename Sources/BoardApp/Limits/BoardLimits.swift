public import StateSyncCore

/// The limits a server puts on how many todos and counters clients add and how long a counter
/// name or todo id is; ``BoardLimitsMiddleware`` enforces them. They are admission rules, not
/// reducer rules, so a journal replays the same under any limits; lowering one keeps what is held.
public struct BoardLimits: Sendable, Equatable {
    /// The most todos the board holds; `addTodo` beyond it is rejected
    /// `limit_reached`. Default 10,000 (a list far longer than anyone
    /// reads, ~1 MB of JSON).
    public var maxTodos = 10_000
    /// The most counters the board holds; a new counter beyond it is
    /// rejected `limit_reached` (existing ones still change). Default 10,000.
    public var maxCounters = 10_000
    /// The longest counter name, in Unicode scalars; longer is rejected
    /// `invalid_action`. Default 100.
    public var maxCounterNameLength = 100
    /// The longest todo id a client may name, in Unicode scalars; longer is
    /// rejected `invalid_action` (no todo has such an id, and it is not
    /// echoed back in a `not_found` message). Default 32.
    public var maxTodoIDLength = 32

    /// The shortest ``maxTodoIDLength`` that still lets a client name every
    /// todo: the server's ids are `t<revision>`, at most 21 scalars.
    public static let shortestTodoIDLimit = 21

    /// The default limits.
    public init() {}

    /// Rejects `action` if it would take the board in `state` beyond a
    /// limit or names a counter or todo longer than allowed.
    public func check(_ action: BoardAction, in state: BoardState) throws(Rejection) {
        switch action {
        case .addTodo:
            guard state.todos.count < maxTodos else {
                throw Rejection(code: "limit_reached", message: "the board holds \(maxTodos) todos, its limit: remove some first")
            }
        case .toggleTodo(let id), .renameTodo(let id, _), .removeTodo(let id), .setPriority(let id, _):
            let length = id.unicodeScalars.count
            guard length <= maxTodoIDLength else {
                throw .invalidAction("todo id is \(length) characters long; ids have at most \(maxTodoIDLength)")
            }
        case .increment(let counter, _), .resetCounter(let counter):
            let length = counter.unicodeScalars.count
            guard length <= maxCounterNameLength else {
                throw .invalidAction("counter name is \(length) characters long; the limit is \(maxCounterNameLength)")
            }
            guard state.counters[counter] != nil || state.counters.count < maxCounters else {
                throw Rejection(code: "limit_reached", message: "the board holds \(maxCounters) counters, its limit")
            }
        case .clearCompleted, .postMessage, .rolled:
            return
        }
    }
}
