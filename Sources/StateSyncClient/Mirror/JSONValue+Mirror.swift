import StateSyncCore

extension JSONValue {
    /// Puts `value` at `pointer`, creating the objects on the way where
    /// nothing (or a scalar) is there yet; an array on the way is entered
    /// when the token is one of its indices, else replaced by an object.
    ///
    /// The mirror document holds only the subscribed parts of the state, so
    /// `/counters/hits` alone gives `{"counters":{"hits":3}}`.
    mutating func setMirrored(_ value: JSONValue, at pointer: JSONPointer) {
        self = Self.setting(value, in: self, tokens: pointer.tokens[...])
    }

    private static func setting(_ value: JSONValue, in document: JSONValue, tokens: ArraySlice<String>) -> JSONValue {
        guard let token = tokens.first else { return value }
        let rest = tokens.dropFirst()
        if case .array(var elements) = document, let index = Int(token), elements.indices.contains(index) {
            elements[index] = setting(value, in: elements[index], tokens: rest)
            return .array(elements)
        }
        var object: JSONObject = [:]
        if case .object(let existing) = document { object = existing }
        object[token] = setting(value, in: object[token] ?? .null, tokens: rest)
        return .object(object)
    }
}
