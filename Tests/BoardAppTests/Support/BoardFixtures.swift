import BoardApp
import Foundation
import StateSyncCore
import StateSyncProtocol

/// Sessions, times and helpers shared by the board tests.
enum BoardFixtures {
    static let alice = SessionInfo(id: "s-91", name: "alice-laptop")
    static let bob = SessionInfo(id: "s-92", name: "bob")

    /// 2026-11-21T10:00:00Z, the time of the protocol's example.
    static let time = Date(timeIntervalSince1970: 1_795_255_200)
    static let timeText = "2026-11-21T10:00:00Z"

    /// A test store over the board reducer, accepting every action at ``time``.
    static func store(_ state: BoardState = BoardState()) -> TestStore<BoardState, SessionCommand<BoardAction>> {
        TestStore(initialState: state, reducer: BoardReducer(), time: time)
    }

    /// `action` dispatched by `session` (alice by default).
    static func by(_ action: BoardAction, _ session: SessionInfo = alice) -> SessionCommand<BoardAction> {
        .dispatch(action, from: session)
    }

    /// Three todos, the middle one done, as if added at revisions 1 to 3.
    static let threeTodos = BoardState(todos: [
        Todo(id: "t1", title: "Milk"),
        Todo(id: "t2", title: "Bread", done: true),
        Todo(id: "t3", title: "Eggs"),
    ])
}
