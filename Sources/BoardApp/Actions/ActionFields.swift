import StateSyncCore

/// The fields of one dispatched action object, read with `invalid_action`
/// rejections that name the action type and the field.
struct ActionFields {
    let object: JSONObject
    let type: String

    /// Reads the `type`; a missing or non-string one is `invalid_action`.
    init(_ object: JSONObject) throws(Rejection) {
        guard let value = object["type"] else {
            throw .invalidAction("an action needs a string field \"type\" (one of \(BoardAction.types.joined(separator: ", ")))")
        }
        guard case .string(let type) = value else {
            throw .invalidAction("field \"type\" of an action must be a string, found \(Self.show(value))")
        }
        self.object = object
        self.type = type
    }

    func string(_ name: String) throws(Rejection) -> String {
        guard let value = object[name] else { throw missing(name, "a string") }
        guard case .string(let text) = value else { throw wrongType(name, "a string", value) }
        return text
    }

    /// A required priority: one of `low`, `normal`, `high`.
    func priority(_ name: String) throws(Rejection) -> TodoPriority {
        let names = TodoPriority.allCases.map(\.rawValue)
        guard let value = object[name] else { throw missing(name, "one of \(names.joined(separator: ", "))") }
        guard case .string(let text) = value, let priority = TodoPriority(rawValue: text) else {
            throw wrongType(name, "one of \(names.joined(separator: ", "))", value)
        }
        return priority
    }

    /// A required integer field (an integral number such as `2` or `2.0`).
    func integer(_ name: String) throws(Rejection) -> Int64 {
        guard object[name] != nil else { throw missing(name, "a 64-bit integer") }
        return try integer(name, default: 0)
    }

    /// An integer field (an integral number such as `2` or `2.0`), or
    /// `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int64) throws(Rejection) -> Int64 {
        guard let value = object[name] else { return defaultValue }
        guard let number = value.int64Value else { throw wrongType(name, "a 64-bit integer", value) }
        return number
    }

    private func missing(_ name: String, _ expected: String) -> Rejection {
        .invalidAction("action \(type) needs field \"\(name)\" (\(expected))")
    }

    private func wrongType(_ name: String, _ expected: String, _ value: JSONValue) -> Rejection {
        .invalidAction("field \"\(name)\" of action \(type) must be \(expected), found \(Self.show(value))")
    }

    /// A value's kind and, for scalars, its text clipped to 40 characters.
    private static func show(_ value: JSONValue) -> String {
        switch value {
        case .null, .array, .object:
            return value.kindWithArticle
        default:
            let text = value.description
            return "\(value.kindWithArticle) (\(text.count <= 40 ? text : text.prefix(40) + "…"))"
        }
    }
}
