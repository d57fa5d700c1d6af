public import StateSyncCore

extension BoardAction: WireAction {
    /// Reads an action from its dispatched object; unknown fields are ignored, `increment`'s `by`
    /// defaults to 1 and must be integral. Reads `rolled` too (journal replay needs it), which the
    /// reducer refuses from a client. Throws ``Rejection`` `invalid_action` naming the bad type or field.
    public init(wireValue object: JSONObject) throws(Rejection) {
        let fields = try ActionFields(object)
        switch fields.type {
        case "addTodo": self = .addTodo(title: try fields.string("title"))
        case "toggleTodo": self = .toggleTodo(id: try fields.string("id"))
        case "renameTodo": self = .renameTodo(id: try fields.string("id"), title: try fields.string("title"))
        case "removeTodo": self = .removeTodo(id: try fields.string("id"))
        case "clearCompleted": self = .clearCompleted
        case "increment": self = .increment(counter: try fields.string("counter"), by: try fields.integer("by", default: 1))
        case "resetCounter": self = .resetCounter(counter: try fields.string("counter"))
        case "setPriority": self = .setPriority(id: try fields.string("id"), priority: try fields.priority("priority"))
        case "postMessage": self = .postMessage(text: try fields.string("text"))
        case "rolled":
            self = .rolled(by: try fields.string("by"), sides: try fields.integer("sides"), result: try fields.integer("result"))
        case let other:
            let shown = other.count <= 40 ? other : other.prefix(40) + "…"
            throw .invalidAction("unknown action type \"\(shown)\" (expected one of \(BoardAction.types.joined(separator: ", ")))")
        }
    }

    /// The object a client dispatches for this action (`increment` always
    /// carries `by`).
    public var wireValue: JSONObject {
        // One literal per case: the object is sorted once (the server
        // journals every action in this form).
        switch self {
        case .addTodo(let title): ["type": .string(type), "title": .string(title)]
        case .toggleTodo(let id), .removeTodo(let id): ["type": .string(type), "id": .string(id)]
        case let .renameTodo(id, title): ["type": .string(type), "id": .string(id), "title": .string(title)]
        case .clearCompleted: ["type": .string(type)]
        case let .increment(counter, by): ["type": .string(type), "counter": .string(counter), "by": .integer(by)]
        case .resetCounter(let counter): ["type": .string(type), "counter": .string(counter)]
        case let .setPriority(id, priority): ["type": .string(type), "id": .string(id), "priority": .string(priority.rawValue)]
        case .postMessage(let text): ["type": .string(type), "text": .string(text)]
        case let .rolled(by, sides, result):
            ["type": .string(type), "by": .string(by), "sides": .integer(sides), "result": .integer(result)]
        }
    }
}
