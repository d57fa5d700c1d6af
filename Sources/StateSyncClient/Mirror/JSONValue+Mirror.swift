import StateSyncCore

extension JSONValue {
    /// Puts `value` at `pointer`, creating objects on the way where nothing or a scalar is (an array is entered for
    /// an index token, else replaced), since the mirror holds only the subscribed parts of the state.
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
