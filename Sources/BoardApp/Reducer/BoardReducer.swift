public import StateSyncCore

/// The board's reducer: applies ``BoardAction``s sent by sessions and the server's session
/// lifecycle commands, as the table of docs/PROTOCOL.md, "Example application" says.
///
/// Every check runs before any change, so a rejection leaves the state as it was (the
/// ``Reducer`` contract). Ids, times and names come from ``Meta`` and ``SessionInfo`` only.
/// Counts and id lengths are ``BoardLimits``, checked before the reducer, so replay never depends
/// on them. The footprint names the one todo, counter or presence entry an action changed, else
/// the one top-level field that may have changed.
///
/// ```swift
/// let store = Store(initialState: BoardState(), reducer: BoardReducer())
/// let alice = SessionInfo(id: "s-91", name: "alice")
/// await store.dispatch(.sessionJoined(alice))
/// await store.dispatch(.dispatch(.postMessage(text: "hi"), from: alice))
/// ```
public struct BoardReducer: Reducer {
    /// A board reducer.
    public init() {}

    /// Applies `command`, or throws a ``Rejection`` leaving `state` unchanged.
    public func reduce(
        into state: inout BoardState, action command: SessionCommand<BoardAction>, meta: Meta
    ) throws(Rejection) -> Footprint {
        switch command {
        case let .dispatch(action, session):
            return try reduce(into: &state, action: action, session: session, meta: meta)
        case let .system(.rolled(by, sides, result)):
            try BoardRules.checkRoll(sides: sides, result: result)
            appendChat(ChatMessage(from: "dice", text: "\(by) rolled \(result) (1-\(sides))", at: BoardTime.string(from: meta.time)), to: &state)
            return .keyPath(\BoardState.chat)
        case .system(let action):
            return try reduce(into: &state, action: action, session: Self.server, meta: meta)
        case .sessionJoined(let session):
            state.presence[session.id] = Presence(name: session.name, since: BoardTime.string(from: meta.time))
            return .element(of: \BoardState.presence, key: session.id)
        case .sessionLeft(let session):
            state.presence[session.id] = nil
            return .element(of: \BoardState.presence, key: session.id)
        case .serverStarted:
            state.presence = [:]
            return .keyPath(\BoardState.presence)
        }
    }

    private func reduce(
        into state: inout BoardState, action: BoardAction, session: SessionInfo, meta: Meta
    ) throws(Rejection) -> Footprint {
        switch action {
        case .addTodo(let title):
            try BoardRules.checkTitle(title)
            let id = "t\(meta.revision)"
            state.todos.append(Todo(id: id, title: title))
            return .element(of: \BoardState.todos, key: id)
        case .toggleTodo(let id):
            let index = try Self.index(ofTodo: id, in: state)
            state.todos[index].done.toggle()
            return .element(of: \BoardState.todos, key: id)
        case let .renameTodo(id, title):
            try BoardRules.checkTitle(title)
            let index = try Self.index(ofTodo: id, in: state)
            state.todos[index].title = title
            return .element(of: \BoardState.todos, key: id)
        case .removeTodo(let id):
            let index = try Self.index(ofTodo: id, in: state)
            state.todos.remove(at: index)
            return .element(of: \BoardState.todos, key: id)
        case .clearCompleted:
            state.todos.removeAll(where: \.done)
            return .keyPath(\BoardState.todos)
        case let .increment(counter, by):
            try BoardRules.checkIncrement(counter: counter, by: by)
            let current = state.counters[counter] ?? 0
            let (sum, overflow) = current.addingReportingOverflow(by)
            guard !overflow else { throw .invalidAction("counter \(counter) would overflow: \(current) + \(by)") }
            state.counters[counter] = sum
            return .element(of: \BoardState.counters, key: counter)
        case .resetCounter(let counter):
            state.counters[counter] = 0
            return .element(of: \BoardState.counters, key: counter)
        case let .setPriority(id, priority):
            let index = try Self.index(ofTodo: id, in: state)
            state.todos[index].priority = priority
            return .element(of: \BoardState.todos, key: id)
        case .postMessage(let text):
            try BoardRules.checkMessage(text)
            appendChat(ChatMessage(from: session.name, text: text, at: BoardTime.string(from: meta.time)), to: &state)
            return .keyPath(\BoardState.chat)
        case .rolled:
            throw .forbidden("only the server rolls dice")
        }
    }

    /// The session a ``SessionCommand/system(_:)`` action other than
    /// `rolled` is reduced as: `{id: "server", name: "server"}`.
    static let server = SessionInfo(id: "server", name: "server")

    /// Appends `message`, keeping the last ``BoardRules/chatHistory``.
    private func appendChat(_ message: ChatMessage, to state: inout BoardState) {
        state.chat.append(message)
        if state.chat.count > BoardRules.chatHistory {
            state.chat.removeFirst(state.chat.count - BoardRules.chatHistory)
        }
    }

    private static func index(ofTodo id: String, in state: BoardState) throws(Rejection) -> Int {
        guard let index = state.todos.firstIndex(where: { $0.id == id }) else {
            throw .notFound("no todo with id \(id)")
        }
        return index
    }
}
