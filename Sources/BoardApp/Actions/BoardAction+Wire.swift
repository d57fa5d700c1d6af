public import StateSyncCore

extension BoardAction: WireAction {
    /// Reads an action from its dispatched object. Unknown fields are
    /// ignored; `increment`'s `by` defaults to 1 and must be an integral
    /// number.
    ///
    /// - Throws: ``Rejection`` `invalid_action` naming the unknown type
    ///   (`unknown action type "fly"`), the missing field (`action addTodo
    ///   needs field "title" (a string)`) or the mistyped one.
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
        case "say": self = .say(text: try fields.string("text"))
        case let other:
            let shown = other.count <= 40 ? other : other.prefix(40) + "…"
            throw .invalidAction("unknown action type \"\(shown)\" (expected one of \(BoardAction.types.joined(separator: ", ")))")
        }
    }

    /// The object a client dispatches for this action (`increment` always
    /// carries `by`).
    public var wireValue: JSONObject {
        var object: JSONObject = ["type": .string(type)]
        switch self {
        case .addTodo(let title):
            object["title"] = .string(title)
        case .toggleTodo(let id), .removeTodo(let id):
            object["id"] = .string(id)
        case let .renameTodo(id, title):
            object["id"] = .string(id)
            object["title"] = .string(title)
        case .clearCompleted:
            break
        case let .increment(counter, by):
            object["counter"] = .string(counter)
            object["by"] = .integer(by)
        case .resetCounter(let counter):
            object["counter"] = .string(counter)
        case .say(let text):
            object["text"] = .string(text)
        }
        return object
    }
}

extension BoardAction: Codable {
    /// Reads the wire form (used by the journal via ``SessionCommand``).
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        guard case .object(let object) = value else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an action must be a JSON object, not \(value.kindWithArticle)"))
        }
        do {
            self = try BoardAction(wireValue: object)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message, underlyingError: error))
        }
    }

    /// Writes the wire form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(wireValue))
    }
}
