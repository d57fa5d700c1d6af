/// What a client may dispatch to the board (docs/PROTOCOL.md, "Example application").
///
/// On the wire each is a JSON object with a string `type` and its fields beside it (see
/// ``init(wireValue:)``). ``BoardReducer`` checks the values, not this type, so that a journal
/// replay runs exactly the same checks.
///
/// ```swift
/// let action = try BoardAction(wireValue: ["type": "addTodo", "title": "Milk"])   // .addTodo(title: "Milk")
/// action.wireValue   // {"title":"Milk","type":"addTodo"}
/// ```
public enum BoardAction: Sendable, Hashable {
    /// Appends `{"id":"t<rev>","title":title,"done":false,"priority":"normal"}`.
    case addTodo(title: String)
    /// Flips `done` of the todo `id`.
    case toggleTodo(id: String)
    /// Sets the title of the todo `id`.
    case renameTodo(id: String, title: String)
    /// Removes the todo `id`.
    case removeTodo(id: String)
    /// Removes every done todo.
    case clearCompleted
    /// Adds `by` (default 1 on the wire, may be negative) to `counter`,
    /// which starts at 0.
    case increment(counter: String, by: Int64)
    /// Sets `counter` to 0 (creating it when absent).
    case resetCounter(counter: String)
    /// Sets the priority of the todo `id` (since app schema version 2).
    case setPriority(id: String, priority: TodoPriority)
    /// Appends `text` to the chat as said by the dispatching session
    /// (version 1 called it `say`: ``BoardMigrations`` upcasts it).
    case postMessage(text: String)
    /// `by` rolled `result` on a die with `sides` sides: appended to the chat as said by `dice`.
    /// Only the server dispatches it (a ``SessionCommand/system(_:)`` from ``Board/effects``); a
    /// client's is rejected `forbidden`. Not in ``types``.
    case rolled(by: String, sides: Int64, result: Int64)

    /// The wire `type`, without building the object.
    public var wireType: String { type }

    /// The wire `type`, e.g. `addTodo`.
    public var type: String {
        switch self {
        case .addTodo: "addTodo"
        case .toggleTodo: "toggleTodo"
        case .renameTodo: "renameTodo"
        case .removeTodo: "removeTodo"
        case .clearCompleted: "clearCompleted"
        case .increment: "increment"
        case .resetCounter: "resetCounter"
        case .setPriority: "setPriority"
        case .postMessage: "postMessage"
        case .rolled: "rolled"
        }
    }

    /// Every wire `type` a client may dispatch, in the protocol's order (for
    /// error messages and help). `rolled` is not one: only the server makes it.
    public static let types = [
        "addTodo", "toggleTodo", "renameTodo", "removeTodo", "clearCompleted", "increment", "resetCounter",
        "setPriority", "postMessage",
    ]
}
