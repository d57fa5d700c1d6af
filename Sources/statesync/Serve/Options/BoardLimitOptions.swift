import ArgumentParser
import BoardApp

/// `serve`'s options of the `board:` section: the built-in board's limits (``BoardLimits``).
struct BoardLimitOptions: SettingOptions {
    private typealias Keys = ServeConfiguration.Board.Keys

    @Option(help: ArgumentHelp("Todos the board holds; addTodo beyond it gets limit_reached.", default: ServeConfiguration.defaults.board.maxTodos))
    var maxTodos: Int?

    @Option(help: ArgumentHelp(
        "Counters the board holds; a new counter beyond it gets limit_reached.", default: ServeConfiguration.defaults.board.maxCounters))
    var maxCounters: Int?

    @Option(help: ArgumentHelp(
        "Most characters of a counter name (increment, resetCounter).", default: ServeConfiguration.defaults.board.maxCounterNameLength))
    var maxCounterNameLength: Int?

    @Option(help: ArgumentHelp(
        "Most characters of a todo id a client names (at least \(BoardLimits.shortestTodoIDLimit), the longest id the server makes).",
        default: ServeConfiguration.defaults.board.maxTodoIdLength))
    var maxTodoIdLength: Int?

    func add(to flags: inout FlagValues) {
        flags.set(Keys.maxTodos, maxTodos)
        flags.set(Keys.maxCounters, maxCounters)
        flags.set(Keys.maxCounterNameLength, maxCounterNameLength)
        flags.set(Keys.maxTodoIdLength, maxTodoIdLength)
    }
}
