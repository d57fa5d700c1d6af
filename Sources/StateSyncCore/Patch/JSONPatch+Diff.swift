extension JSONPatch {
    /// The patch that turns `old` into `new`: applying it to `old` gives a
    /// value equal to `new`.
    ///
    /// Strategy, cheapest test first at every level:
    /// - Subtrees that share storage with `old` (untouched since a copy) are
    ///   skipped in O(1), so diffing a state against its successor costs in
    ///   proportion to what changed, not to the document's size.
    /// - Different kinds or different scalars: one `replace`.
    /// - Objects: by key (`remove`, `add`, or recursion for shared keys).
    /// - Arrays: the common prefix and suffix are trimmed (recursing into
    ///   pairs of objects with the same `"id"`). If what is left on both
    ///   sides is objects with unique string or integer `"id"`s, in the same
    ///   relative order, they are matched by id: one `add` per new item, one
    ///   `remove` per item gone, ops inside changed items (so inserting at
    ///   the front of 1,000 todos is one `add` at `/0`). Otherwise the rest
    ///   is paired by position (recursing; items whose ids differ are
    ///   replaced whole), then the surplus added or removed. Reordered items
    ///   therefore give replaces, not moves.
    ///
    /// Only `add`, `remove` and `replace` are emitted. Numbers compare by
    /// value, so `1` → `1.0` gives no operation.
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
