public import StateSyncCore

/// The board of docs/PROTOCOL.md, the server's built-in default app.
///
/// Its reducer reports the one top-level field (or counter or presence entry) each command may
/// change, so an action re-encodes only that. Its one effect rolls dice (``effects``). Counts
/// and lengths are a server's limits, not the reducer's: install ``BoardLimitsMiddleware``
/// (as `statesync serve` does).
///
/// ```swift
/// let engine = try await SyncEngine<Board>(journal: MemoryJournal())
/// ```
public enum Board: StateSyncApp {
    /// ``BoardState``.
    public typealias State = BoardState
    /// ``BoardAction``.
    public typealias Action = BoardAction

    /// An empty board.
    public static var initialState: BoardState { BoardState() }

    /// ``BoardReducer``.
    public static var reducer: any Reducer<BoardState, SessionCommand<BoardAction>> { BoardReducer() }

    /// 2: todos have a priority, and the chat action is `postMessage`
    /// (version 1's `say`); see ``BoardMigrations``.
    public static var schemaVersion: Int { 2 }

    /// ``BoardMigrations/all``.
    public static var migrations: SchemaMigrations { BoardMigrations.all }

    /// `/todos`, `/counters`, `/chat`, `/presence` for the fields of the same names.
    public static func jsonPointer(for keyPath: AnyKeyPath) -> JSONPointer? {
        switch keyPath {
        case \BoardState.todos: JSONPointer(tokens: ["todos"])
        case \BoardState.counters: JSONPointer(tokens: ["counters"])
        case \BoardState.chat: JSONPointer(tokens: ["chat"])
        case \BoardState.presence: JSONPointer(tokens: ["presence"])
        default: nil
        }
    }
}
