/// One top-level member of an app's state (see ``SlicedState``): its key path,
/// its JSON Pointer, and how to decode only what a patch changed (an array by
/// element, a `String`-keyed dictionary by entry, else whole).
public struct StateSlice<State>: Sendable {
    /// The key path of the member.
    public let keyPath: any PartialKeyPath<State> & Sendable
    /// Where the member is in the encoded state (one token for a top-level member).
    public let pointer: JSONPointer

    /// Applies `changes` (whose paths are relative to the member) given the
    /// member's new `json`; `false` when the member's value did not change.
    let update: @Sendable (_ changes: ArraySlice<JSONPatchOperation>, _ json: JSONValue, _ state: inout State) throws -> Bool
    /// Whether the member is equal in both states.
    package let isEqual: @Sendable (_ lhs: State, _ rhs: State) -> Bool

    /// A member decoded whole on every change of it.
    public init<Value: Decodable & Equatable & SendableMetatype>(_ keyPath: any WritableKeyPath<State, Value> & Sendable, at key: String) {
        self.keyPath = keyPath
        pointer = JSONPointer(tokens: [key])
        update = { _, json, state in
            let value = try JSONValueDecoder().decode(Value.self, from: json)
            guard value != state[keyPath: keyPath] else { return false }
            state[keyPath: keyPath] = value
            return true
        }
        isEqual = { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }

    /// An array member, updated element by element.
    public init<Element: Decodable & Equatable & SendableMetatype>(_ keyPath: any WritableKeyPath<State, [Element]> & Sendable, at key: String) {
        self.keyPath = keyPath
        pointer = JSONPointer(tokens: [key])
        update = { changes, json, state in try ElementChanges.apply(changes, json: json, to: &state[keyPath: keyPath]) }
        isEqual = { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }

    /// A `String`-keyed dictionary member, updated entry by entry.
    public init<Value: Decodable & Equatable & SendableMetatype>(_ keyPath: any WritableKeyPath<State, [String: Value]> & Sendable, at key: String) {
        self.keyPath = keyPath
        pointer = JSONPointer(tokens: [key])
        update = { changes, json, state in try EntryChanges.apply(changes, json: json, to: &state[keyPath: keyPath]) }
        isEqual = { $0[keyPath: keyPath] == $1[keyPath: keyPath] }
    }
}
