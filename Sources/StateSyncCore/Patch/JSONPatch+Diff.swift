extension JSONPatch {
    /// The patch that turns `old` into `new`: applying it to `old` gives a
    /// value equal to `new`.
    ///
    /// Subtrees sharing storage with `old` are skipped in O(1), so the cost
    /// follows the change, not the document. Arrays of objects with unique
    /// `"id"`s are matched by id (inserting at the front of 1,000 todos is one
    /// `add` at `/0`; moved items give `move`s, up to 1,000), others by
    /// position. Never emits `copy` or `test`; `1` → `1.0` gives no operation.
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

    /// The patch for the slice at `pointer`, with paths relative to it, as a
    /// subscription receives it. An absent value counts as `null`, so a slice
    /// appearing or disappearing gives `replace ""`.
    ///
    /// ```swift
    /// JSONPatch.diff(from: old, to: new, at: try JSONPointer(parsing: "/counters"))
    /// // [{"op":"replace","path":"/hits","value":4}]
    /// ```
    public static func diff(from old: JSONValue, to new: JSONValue, at pointer: JSONPointer) -> JSONPatch {
        diff(from: old[pointer] ?? .null, to: new[pointer] ?? .null)
    }
}
