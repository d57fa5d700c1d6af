import StateSyncCore

/// What mirror updates changed: the paths (for the fan-out, which then
/// need not diff the whole state to find them) and a cost for the history
/// window.
struct MirrorDelta {
    /// Estimated object members and array elements of the replaced containers:
    /// what a state in the history window holds beyond the previous revision.
    var cost = 0
    /// The pointers whose values were replaced, added or removed; `nil`
    /// after a full encode (then anything may have changed).
    var paths: [JSONPointer]? = []

    /// Both changes together.
    mutating func merge(_ other: MirrorDelta) {
        cost += other.cost
        if let more = other.paths {
            paths?.append(contentsOf: more)
        } else {
            paths = nil
        }
    }

    /// A change to `json` that shares nothing with what came before (a
    /// full encode, or a state loaded from a snapshot): anything may have
    /// changed, and its first two levels are new.
    static func whole(_ json: JSONValue) -> MirrorDelta {
        let children: [JSONValue] = json.objectValue.map { Array($0.values) } ?? json.arrayValue.map(Array.init) ?? []
        return MirrorDelta(cost: children.reduce(width(json)) { $0 + width($1) }, paths: nil)
    }

    /// Members or elements of a container; 1 for a scalar.
    static func width(_ value: JSONValue) -> Int {
        if let object = value.objectValue { return object.count + 1 }
        if let array = value.arrayValue { return array.count + 1 }
        return 1
    }
}
