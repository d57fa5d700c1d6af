package import BoardApp
package import StateSyncCore

/// The board's next app schema version (``Board``'s plus one), for tests of
/// rolling upgrades and of clients and nodes newer than the board: the
/// board's migrations and one more step, in which the board's version had
/// called `addTodo` `addTask` (upcast); the state keeps its shape.
package enum BoardNext: StateSyncApp {
    package typealias Action = BoardAction
    package static var initialState: BoardState { Board.initialState }
    package static var reducer: any Reducer<BoardState, SessionCommand<BoardAction>> { Board.reducer }
    package static var schemaVersion: Int { Board.schemaVersion + 1 }
    package static var migrations: SchemaMigrations {
        SchemaMigrations(Board.migrations.steps + [SchemaMigration(from: Board.schemaVersion, state: { $0 }, action: { action in
            action["type"] == "addTask" ? action.replacingType(with: "addTodo") : action
        })])
    }
}
