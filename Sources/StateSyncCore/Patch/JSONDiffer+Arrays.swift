extension JSONDiffer {
    /// Diffs two arrays.
    ///
    /// 1. Trim the common prefix, then the common suffix. Pairs that share
    ///    storage or are equal are skipped; pairs of objects with the same
    ///    `"id"` are recursed into (ops inside the item). Suffix ops use the
    ///    old indices and are emitted before the middle changes the length.
    /// 2. The middle that is left: only new elements → `add`s; only old ones
    ///    → `remove`s (highest index first).
    /// 3. Both sides non-empty and every element an object with a unique
    ///    string or integer `"id"`, the shared ids in the same relative
    ///    order: walk by id, `remove` the items gone, `add` the new ones and
    ///    recurse into the ones kept. So inserting one todo at the front of
    ///    1,000 is one `add` at `/0`, removing one is one `remove`, and a
    ///    changed item gives ops inside it.
    /// 4. Otherwise (plain values, or items reordered): pair the middles by
    ///    position, recursing into pairs (a pair whose `"id"`s differ is
    ///    replaced whole), then `add` or `remove` the rest.
    ///
    /// Cost: O(prefix + suffix) O(1) comparisons when little changed, plus
    /// hashing the ids of the middle only.
    mutating func diffArrays(_ old: [JSONValue], _ new: [JSONValue]) {
        if JSONValue.sameBuffer(old, new) { return }
        let common = min(old.count, new.count)
        var prefix = 0
        while prefix < common {
            prefix += JSONValue.identicalRun(old, from: prefix, new, from: prefix, forwards: true, limit: common - prefix)
            guard prefix < common, trim(old[prefix], new[prefix], at: prefix) else { break }
            prefix += 1
        }
        var suffix = 0
        while suffix < common - prefix {
            suffix += JSONValue.identicalRun(
                old, from: old.count - 1 - suffix, new, from: new.count - 1 - suffix,
                forwards: false, limit: common - prefix - suffix
            )
            guard suffix < common - prefix,
                  trim(old[old.count - 1 - suffix], new[new.count - 1 - suffix], at: old.count - 1 - suffix) else { break }
            suffix += 1
        }
        let oldMiddle = old[prefix..<(old.count - suffix)]
        let newMiddle = new[prefix..<(new.count - suffix)]
        if oldMiddle.isEmpty {
            for (offset, value) in newMiddle.enumerated() {
                emitAdd(String(prefix + offset), value)
            }
        } else if newMiddle.isEmpty {
            for index in oldMiddle.indices.reversed() {
                emitRemove(String(index))
            }
        } else if !diffByID(oldMiddle, newMiddle, from: prefix) {
            diffByPosition(oldMiddle, newMiddle, from: prefix)
        }
    }

    /// Whether the pair at `index` can be trimmed (after emitting ops inside
    /// it when it is the same item, changed).
    private mutating func trim(_ old: JSONValue, _ new: JSONValue, at index: Int) -> Bool {
        if old.isIdentical(to: new) { return true }
        if let oldID = Self.id(of: old), let newID = Self.id(of: new), oldID == newID {
            descend(String(index), old, new)
            return true
        }
        return old == new
    }

    /// The walk of step 3; returns `false` without emitting anything when
    /// its conditions do not hold.
    private mutating func diffByID(_ old: ArraySlice<JSONValue>, _ new: ArraySlice<JSONValue>, from start: Int) -> Bool {
        guard let oldIDs = Self.uniqueIDs(old), let newIDs = Self.uniqueIDs(new) else { return false }
        let oldSet = Set(oldIDs)
        let newSet = Set(newIDs)
        guard oldIDs.filter(newSet.contains) == newIDs.filter(oldSet.contains) else { return false }
        var oldIndex = 0
        var newIndex = 0
        var position = start
        while oldIndex < oldIDs.count || newIndex < newIDs.count {
            if oldIndex < oldIDs.count && !newSet.contains(oldIDs[oldIndex]) {
                emitRemove(String(position))
                oldIndex += 1
            } else if newIndex < newIDs.count && !oldSet.contains(newIDs[newIndex]) {
                emitAdd(String(position), new[new.startIndex + newIndex])
                newIndex += 1
                position += 1
            } else {
                descend(String(position), old[old.startIndex + oldIndex], new[new.startIndex + newIndex])
                oldIndex += 1
                newIndex += 1
                position += 1
            }
        }
        return true
    }

    /// The pairing of step 4.
    private mutating func diffByPosition(_ old: ArraySlice<JSONValue>, _ new: ArraySlice<JSONValue>, from start: Int) {
        let paired = min(old.count, new.count)
        for offset in 0..<paired {
            let oldValue = old[old.startIndex + offset]
            let newValue = new[new.startIndex + offset]
            if let oldID = Self.id(of: oldValue), let newID = Self.id(of: newValue), oldID != newID {
                emitReplace(String(start + offset), newValue)
            } else {
                descend(String(start + offset), oldValue, newValue)
            }
        }
        for offset in paired..<new.count {
            emitAdd(String(start + offset), new[new.startIndex + offset])
        }
        for offset in (paired..<old.count).reversed() {
            emitRemove(String(start + offset))
        }
    }

    /// The `"id"` of an object item when it is a string or an integer.
    private static func id(of value: JSONValue) -> JSONValue? {
        guard case .object(let object) = value, let id = object["id"] else { return nil }
        switch id {
        case .string, .integer: return id
        default: return nil
        }
    }

    /// The ids of all items, or `nil` when one has none or two share one.
    private static func uniqueIDs(_ values: ArraySlice<JSONValue>) -> [JSONValue]? {
        var ids: [JSONValue] = []
        ids.reserveCapacity(values.count)
        var seen = Set<JSONValue>(minimumCapacity: values.count)
        for value in values {
            guard let id = id(of: value), seen.insert(id).inserted else { return nil }
            ids.append(id)
        }
        return ids
    }
}
