package import BoardApp
package import StateSyncCore

/// The board at app schema version 2, for tests of versions: version 1
/// called `addTodo` `addTask` (upcast), and its state is unchanged.
package enum BoardV2: StateSyncApp {
    package typealias Action = BoardAction
    package static var initialState: BoardState { Board.initialState }
    package static var reducer: any Reducer<BoardState, SessionCommand<BoardAction>> { Board.reducer }
    package static var schemaVersion: Int { 2 }
    package static var migrations: SchemaMigrations {
        [SchemaMigration(from: 1, state: { $0 }, action: { action in
            action["type"] == "addTask" ? action.replacingType(with: "addTodo") : action
        })]
    }
}
