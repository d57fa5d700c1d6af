extension JSONDiffer {
    /// Diffs two arrays: (1) trim the common prefix and suffix, recursing into
    /// objects with the same `"id"` (suffix ops use old indices, so come
    /// first); (2) a middle of only new or only old elements gives `add`s or
    /// `remove`s; (3) objects with unique `"id"`s are matched by id (`remove`,
    /// `add`, recursion, and the fewest `move`s up to ``reorderLimit`` items);
    /// (4) else pair by position, then `add` or `remove` the rest.
    mutating func diffArrays(_ old: JSONArray, _ new: JSONArray) {
        if old.isIdentical(to: new) { return }
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
        // The middles as plain arrays (indexed from 0): usually a few elements.
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])[...]
        let newMiddle = Array(new[prefix..<(new.count - suffix)])[...]
        if oldMiddle.isEmpty {
            for (offset, value) in newMiddle.enumerated() {
                emitAdd(String(prefix + offset), value)
            }
        } else if newMiddle.isEmpty {
            for offset in oldMiddle.indices.reversed() {
                emitRemove(String(prefix + offset))
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
        guard oldIDs.filter(newSet.contains) == newIDs.filter(oldSet.contains) else {
            guard max(oldIDs.count, newIDs.count) <= Self.reorderLimit else { return false }
            diffReordered(old, oldIDs, new, newIDs, from: start)
            return true
        }
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

    /// The most items left on a side for which reordering is expressed
    /// with `move`s (each costs O(n) to simulate).
    static var reorderLimit: Int { 1_000 }

    /// Step 3 for reordered items, in passes whose indices hold in order:
    /// removes (highest first), the fewest `move`s (items outside a longest
    /// in-order run, right to left), `add`s (ascending), then changes inside
    /// kept items. `slots` simulates the kept items while moving.
    private mutating func diffReordered(
        _ old: ArraySlice<JSONValue>, _ oldIDs: [JSONValue],
        _ new: ArraySlice<JSONValue>, _ newIDs: [JSONValue],
        from start: Int
    ) {
        let newSet = Set(newIDs)
        for offset in oldIDs.indices.reversed() where !newSet.contains(oldIDs[offset]) {
            emitRemove(String(start + offset))
        }
        var oldOffsetByID: [JSONValue: Int] = [:]
        for (offset, id) in oldIDs.enumerated() { oldOffsetByID[id] = offset }
        var slots = oldIDs.indices.filter { newSet.contains(oldIDs[$0]) }
        let target = newIDs.compactMap { oldOffsetByID[$0] }
        let staying = Self.longestIncreasingSubsequence(target)
        for index in target.indices.reversed() where !staying.contains(target[index]) {
            let from = slots.firstIndex(of: target[index])!
            var to = slots.count - 1
            if index + 1 < target.count {
                let neighbour = slots.firstIndex(of: target[index + 1])!
                to = from < neighbour ? neighbour - 1 : neighbour
            }
            guard from != to else { continue }
            emitMove(from: start + from, to: start + to)
            slots.remove(at: from)
            slots.insert(target[index], at: to)
        }
        for (position, id) in newIDs.enumerated() where oldOffsetByID[id] == nil {
            emitAdd(String(start + position), new[new.startIndex + position])
        }
        for (position, id) in newIDs.enumerated() {
            guard let oldOffset = oldOffsetByID[id] else { continue }
            descend(String(start + position), old[old.startIndex + oldOffset], new[new.startIndex + position])
        }
    }

    /// The values of one longest strictly increasing subsequence of
    /// `values` (patience sorting, O(n log n)).
    package static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = Set<Int>()
        var index = tails.last ?? -1
        while index >= 0 {
            result.insert(values[index])
            index = previous[index]
        }
        return result
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
