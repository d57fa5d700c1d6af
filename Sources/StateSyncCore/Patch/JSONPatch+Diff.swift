extension JSONPatch {
    /// The patch that turns `old` into `new`: applying it to `old` gives a
    /// value equal to `new`.
    ///
    /// Unchanged subtrees that share storage with `old` cost O(1), so
    /// diffing a state against its successor costs in proportion to what
    /// changed. Objects are compared by key, arrays of objects with unique
    /// `"id"`s by id, other arrays by trimming their common prefix and
    /// suffix (see ``JSONDiffer``'s documentation in the source for the
    /// exact strategy). Only `add`, `remove` and `replace` are emitted.
    ///
    /// ```swift
    /// let old: JSONValue = ["counters": ["hits": 3]]
    /// var new = old
    /// new["counters"]?["hits"] = 4
    /// JSONPatch.diff(from: old, to: new)
    /// // [{"op":"replace","path":"/counters/hits","value":4}]
    /// ```
    public static func diff(from old: JSONValue, to new: JSONValue) -> JSONPatch {
        var differ = JSONDiffer()
        differ.diff(old, new)
        return JSONPatch(differ.operations)
    }

    /// The patch for the slice at `pointer` only, with operation paths
    /// **relative to `pointer`** (`""` is the focused value itself), as a
    /// subscription to `pointer` receives it.
    ///
    /// A value absent at `pointer` counts as `null` (the protocol sends
    /// `null` for a path where nothing exists), so a slice appearing gives
    /// `replace ""` with its value and a slice disappearing gives
    /// `replace ""` with `null`; absent on both sides gives no operations.
    ///
    /// ```swift
    /// JSONPatch.diff(from: old, to: new, at: try JSONPointer(parsing: "/counters"))
    /// // [{"op":"replace","path":"/hits","value":4}]
    /// ```
    public static func diff(from old: JSONValue, to new: JSONValue, at pointer: JSONPointer) -> JSONPatch {
        diff(from: old[pointer] ?? .null, to: new[pointer] ?? .null)
    }
}
