extension JSONValue {
    // Changing a container inside a `JSONValue` in place means holding the
    // only reference to it. Binding it in a `switch` over the value (or
    // over a value returned by a call) leaves a second reference alive for
    // the whole case body in optimized builds, however early the value is
    // overwritten, so the first change copied the container: a whole array
    // chunk list, or a flat array or object, for every edit. The `guard`
    // in a function of its own hands the caller the only reference.

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
