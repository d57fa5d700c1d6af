import BoardApp
import StateSyncClient

/// The todos as predicted, with the ids of those not confirmed yet: added,
/// toggled or renamed by this terminal and not acknowledged by the server.
struct PendingTodos: Equatable, Sendable {
    /// The predicted list.
    var todos: [Todo]
    /// The ids of the todos whose predicted form the server has not confirmed.
    var pendingIDs: Set<String>
}

extension OptimisticView where State == BoardState {
    /// The predicted todos, each one that differs from the confirmed list
    /// (absent there, or with another title or state) marked pending.
    var pendingTodos: PendingTodos {
        guard pendingCount > 0 else { return PendingTodos(todos: predicted.todos, pendingIDs: []) }
        let confirmedByID = Dictionary(confirmed.todos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let pending = predicted.todos.filter { confirmedByID[$0.id] != $0 }.map(\.id)
        return PendingTodos(todos: predicted.todos, pendingIDs: Set(pending))
    }
}
