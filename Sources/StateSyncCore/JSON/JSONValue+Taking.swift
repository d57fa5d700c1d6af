extension JSONValue {
    // Changing a container inside a `JSONValue` in place needs the only
    // reference to it; a `switch` binding it keeps a second one alive for the
    // whole case body, so a `guard` in a function of its own takes it out.

    /// Moves the array out, leaving `null`; `nil` (and `self` unchanged)
    /// when this is not an array. Put it back when done.
    package mutating func takeArray() -> JSONArray? {
        guard case .array(let values) = self else { return nil }
        self = .null
        return values
    }

    /// Moves the object out, leaving `null`; `nil` (and `self` unchanged)
    /// when this is not an object. Put it back when done.
    package mutating func takeObject() -> JSONObject? {
        guard case .object(let object) = self else { return nil }
        self = .null
        return object
    }
}
