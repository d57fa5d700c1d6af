/// One step of an app's schema, from version `from` to `from + 1`: how a stored
/// state and a journaled action of version `from` become the next's.
///
/// Both work on JSON, as stored, so a step never needs the older Swift types
/// (``typed(from:_:to:state:action:)`` wraps typed ones). A step must be
/// deterministic: replay migrates the same history to the same bytes.
///
/// ```swift
/// SchemaMigration(from: 1) { state in
///     var state = state.objectValue ?? [:]
///     state["archived"] = []                      // version 2 adds a list
///     return .object(state)
/// } action: { action in
///     action["type"] == "say" ? action.replacingType(with: "postMessage") : action
/// }
/// ```
public struct SchemaMigration: Sendable {
    /// The version it migrates from (to `from + 1`).
    public let from: Int
    let migrateState: @Sendable (JSONValue) throws -> JSONValue
    let upcastAction: @Sendable (JSONValue) throws -> JSONValue

    /// A step from `from` to `from + 1`: `state` turns a state of version
    /// `from` into one of `from + 1`; `action` (default: unchanged) turns a
    /// journaled action of version `from` into one of `from + 1`.
    public init(
        from: Int,
        state: @escaping @Sendable (JSONValue) throws -> JSONValue,
        action: @escaping @Sendable (JSONValue) throws -> JSONValue = { $0 }
    ) {
        self.from = from
        migrateState = state
        upcastAction = action
    }

    /// A step written on Swift types: the stored state is decoded as `Old`,
    /// converted by `state`, and encoded as `New`.
    public static func typed<Old: Decodable, New: Encodable>(
        from: Int, _ old: Old.Type, to new: New.Type,
        state: @escaping @Sendable (Old) throws -> New,
        action: @escaping @Sendable (JSONValue) throws -> JSONValue = { $0 }
    ) -> SchemaMigration {
        SchemaMigration(from: from, state: { stored in
            try JSONValueEncoder().encode(state(JSONValueDecoder().decode(Old.self, from: stored)))
        }, action: action)
    }
}

extension JSONValue {
    /// This action object with its `type` replaced by `type`: the usual
    /// upcast of an action that was renamed.
    public func replacingType(with type: String) -> JSONValue {
        guard var object = objectValue else { return self }
        object["type"] = .string(type)
        return .object(object)
    }
}
