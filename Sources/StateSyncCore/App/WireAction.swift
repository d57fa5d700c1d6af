/// An application action as a client dispatches it: a JSON object with a string
/// `type` and the payload beside it, read with ``init(wireValue:)`` and written
/// with ``wireValue``.
///
/// ```swift
/// let action = try BoardAction(wireValue: ["type": "increment", "counter": "hits"])
/// ```
public protocol WireAction: Sendable {
    /// Reads an action from its dispatched object.
    /// - Throws: a ``Rejection`` `invalid_action` naming the unknown type, or
    ///   the missing or mistyped field.
    init(wireValue: JSONObject) throws(Rejection)

    /// The object a client dispatches for this action.
    var wireValue: JSONObject { get }

    /// The action's wire `type` (e.g. `addTodo`), for logs and metric
    /// labels. Default: read from ``wireValue``; an app whose actions know
    /// their type returns it without building the object.
    var wireType: String { get }
}

extension WireAction {
    /// The `type` string of ``wireValue`` (`unknown` when it has none).
    public var wireType: String {
        if case .string(let type)? = wireValue["type"] { return type }
        return "unknown"
    }
}
