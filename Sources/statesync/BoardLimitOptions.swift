import ArgumentParser
import BoardApp

/// `serve`'s options for the built-in board's limits (``BoardLimits``),
/// applied by ``BoardLimitsMiddleware`` before the reducer.
struct BoardLimitOptions: ParsableArguments {
    @Option(help: "Todos the board holds; addTodo beyond it gets limit_reached.")
    var maxTodos = BoardLimits().maxTodos

    @Option(help: "Counters the board holds; a new counter beyond it gets limit_reached.")
    var maxCounters = BoardLimits().maxCounters

    @Option(help: "Most characters of a counter name (increment, resetCounter).")
    var maxCounterNameLength = BoardLimits().maxCounterNameLength

    @Option(help: "Most characters of a todo id a client names (at least \(BoardLimits.shortestTodoIDLimit), the longest id the server makes).")
    var maxTodoIdLength = BoardLimits().maxTodoIDLength

    func validate() throws {
        guard maxTodos >= 1 else { throw ValidationError("--max-todos must be at least 1") }
        guard maxCounters >= 1 else { throw ValidationError("--max-counters must be at least 1") }
        guard maxCounterNameLength >= 1 else { throw ValidationError("--max-counter-name-length must be at least 1") }
        guard maxTodoIdLength >= BoardLimits.shortestTodoIDLimit else {
            throw ValidationError("--max-todo-id-length must be at least \(BoardLimits.shortestTodoIDLimit): the server's todo ids have up to that many characters")
        }
    }

    /// The limits these options give.
    var limits: BoardLimits {
        var limits = BoardLimits()
        limits.maxTodos = maxTodos
        limits.maxCounters = maxCounters
        limits.maxCounterNameLength = maxCounterNameLength
        limits.maxTodoIDLength = maxTodoIdLength
        return limits
    }
}
