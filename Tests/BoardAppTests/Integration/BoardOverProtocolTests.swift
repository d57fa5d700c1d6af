import BoardApp
import StateSyncCore
import StateSyncProtocol
import Testing

/// The path a `dispatch` takes through the server, without the network:
/// frame bytes → ``ClientMessage`` → ``BoardAction`` → ``SessionCommand`` →
/// store → `ack`/`reject` frame bytes.
@Suite("Board over the protocol", .timeLimit(.minutes(1)))
struct BoardOverProtocolTests {
    typealias F = BoardFixtures

    /// Handles one client frame as a server would and returns the reply frame.
    private func handle(_ text: String, from session: SessionInfo, in store: Store<BoardState, SessionCommand<BoardAction>>) async throws -> String {
        let reply: ServerMessage
        do {
            guard case let .dispatch(id, object, _) = try MessageDecoder().decodeClientMessage(Array(text.utf8)) else {
                Issue.record("expected a dispatch")
                return ""
            }
            do {
                let action = try BoardAction(wireValue: object)
                switch await store.dispatch(.dispatch(action, from: session), clientID: "c-1") {
                case .success(let meta): reply = .ack(id: id, rev: meta.revision)
                case .failure(let rejection): reply = .reject(id: id, rejection: rejection)
                }
            } catch {
                reply = .reject(id: id, rejection: error)
            }
        } catch {
            reply = .error(error)
        }
        return String(decoding: MessageEncoder().encode(reply), as: UTF8.self)
    }

    @Test("dispatches answer ack, reject or error exactly as the protocol shows")
    func flow() async throws {
        let store = Store(initialState: F.threeTodos, reducer: BoardReducer())
        let replies = [
            try await handle(#"{"type":"dispatch","id":"a17","action":{"type":"toggleTodo","id":"t3"}}"#, from: F.alice, in: store),
            try await handle(#"{"type":"dispatch","id":"a18","action":{"type":"toggleTodo","id":"nope"}}"#, from: F.alice, in: store),
            try await handle(#"{"type":"dispatch","id":"a19","action":{"type":"fly"}}"#, from: F.alice, in: store),
            try await handle(#"{"type":"dispatch","id":"a20","action":{"type":"postMessage","text":"hi","from":"mallory"}}"#, from: F.bob, in: store),
            try await handle(#"{"type":"dispatch","id":"a21"}"#, from: F.bob, in: store),
        ]
        #expect(replies == [
            #"{"type":"ack","id":"a17","rev":1}"#,
            #"{"type":"reject","id":"a18","code":"not_found","message":"no todo with id nope"}"#,
            #"{"type":"reject","id":"a19","code":"invalid_action","message":"unknown action type \"fly\" (expected one of addTodo, toggleTodo, renameTodo, removeTodo, clearCompleted, increment, resetCounter, setPriority, postMessage)"}"#,
            #"{"type":"ack","id":"a20","rev":2}"#,
            #"{"type":"error","id":"a21","code":"bad_request","message":"missing field \"action\" (an object)"}"#,
        ])
        #expect(store.state.todos[2].done)
        #expect(store.state.chat.map(\.from) == ["bob"])   // the session's name, not the client's "from"
    }
}
