import BoardApp

extension ServeConfiguration {
    /// The built-in board's limits, applied by ``BoardLimitsMiddleware``
    /// before the reducer (the file's `board:` section; defaults and why: ``BoardLimits``).
    struct Board: Sendable, Equatable {
        /// Todos the board holds. Default 10,000.
        var maxTodos = BoardLimits().maxTodos
        /// Counters the board holds. Default 10,000.
        var maxCounters = BoardLimits().maxCounters
        /// Most characters of a counter name. Default 100.
        var maxCounterNameLength = BoardLimits().maxCounterNameLength
        /// Most characters of a todo id a client names; at least the
        /// longest id the server makes. Default 32.
        var maxTodoIdLength = BoardLimits().maxTodoIDLength

        /// The settings of this section.
        enum Keys {
            static let maxTodos = Setting<Int>("board.maxTodos", flag: "--max-todos")
            static let maxCounters = Setting<Int>("board.maxCounters", flag: "--max-counters")
            static let maxCounterNameLength = Setting<Int>("board.maxCounterNameLength", flag: "--max-counter-name-length")
            static let maxTodoIdLength = Setting<Int>("board.maxTodoIdLength", flag: "--max-todo-id-length")
        }

        /// The defaults.
        init() {}

        /// The section as `settings` give it, each value checked.
        init(reading settings: inout SettingsReader) throws(ConfigurationError) {
            try settings.read(Keys.maxTodos, into: &maxTodos, .atLeast(1))
            try settings.read(Keys.maxCounters, into: &maxCounters, .atLeast(1))
            try settings.read(Keys.maxCounterNameLength, into: &maxCounterNameLength, .atLeast(1))
            try settings.read(Keys.maxTodoIdLength, into: &maxTodoIdLength, .atLeast(
                BoardLimits.shortestTodoIDLimit, "the server's todo ids have up to that many characters"))
        }

        /// Each setting and its value, in the file's order.
        var entries: [ConfigurationEntry] {
            [
                ConfigurationEntry(Keys.maxTodos, maxTodos), ConfigurationEntry(Keys.maxCounters, maxCounters),
                ConfigurationEntry(Keys.maxCounterNameLength, maxCounterNameLength),
                ConfigurationEntry(Keys.maxTodoIdLength, maxTodoIdLength),
            ]
        }

        /// The limits these settings give.
        var limits: BoardLimits {
            var limits = BoardLimits()
            limits.maxTodos = maxTodos
            limits.maxCounters = maxCounters
            limits.maxCounterNameLength = maxCounterNameLength
            limits.maxTodoIDLength = maxTodoIdLength
            return limits
        }
    }
}
