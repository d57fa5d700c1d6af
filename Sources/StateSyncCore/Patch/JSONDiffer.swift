/// Computes the operations that turn one JSON value into another: the engine
/// behind ``JSONPatch/diff(from:to:)``, which gives the strategy. Large objects
/// are walked tree against tree (``JSONObject/forEachChangedRun(from:_:)``);
/// arrays: ``diffArrays(_:_:)``.
package struct JSONDiffer {
    /// The operations so far, in application order.
    private(set) var operations: [JSONPatchOperation] = []

    /// The tokens of the value being compared, relative to the diff's root.
    private var path: [String] = []

    /// Appends the operations turning `old` into `new`.
    mutating func diff(_ old: JSONValue, _ new: JSONValue) {
        if old.isIdentical(to: new) { return }
        switch (old, new) {
        case let (.object(oldObject), .object(newObject)):
            diffObjects(oldObject, newObject)
        case let (.array(oldValues), .array(newValues)):
            diffArrays(oldValues, newValues)
        default:
            if old != new { emitReplace(new) }
        }
    }

    /// Diffs the child `token` of both sides, unless they share storage.
    mutating func descend(_ token: String, _ old: JSONValue, _ new: JSONValue) {
        if old.isIdentical(to: new) { return }
        path.append(token)
        diff(old, new)
        path.removeLast()
    }

    mutating func emitReplace(_ value: JSONValue) {
        operations.append(.replace(path: JSONPointer(tokens: path), value: value))
    }

    mutating func emitReplace(_ token: String, _ value: JSONValue) {
        operations.append(.replace(path: JSONPointer(tokens: path + [token]), value: value))
    }

    mutating func emitAdd(_ token: String, _ value: JSONValue) {
        operations.append(.add(path: JSONPointer(tokens: path + [token]), value: value))
    }

    mutating func emitMove(from: Int, to: Int) {
        operations.append(.move(from: JSONPointer(tokens: path + [String(from)]), path: JSONPointer(tokens: path + [String(to)])))
    }

    mutating func emitRemove(_ token: String) {
        operations.append(.remove(path: JSONPointer(tokens: path + [token])))
    }

    private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject) {
        if old.isIdentical(to: new) { return }
        // Adds go after the removes: a key removed and a canonically
        // equivalent, differently spelled key added (one key to Swift's
        // String) must be removed first.
        var added: [(key: String, value: JSONValue)] = []
        new.forEachChangedRun(from: old) { oldKeys, oldValues, newKeys, newValues in
            diffRuns(oldKeys, oldValues, newKeys, newValues, added: &added)
        }
        for (key, value) in added {
            emitAdd(key, value)
        }
    }

    /// Diffs one pair of runs of entries over the same range of keys (see
    /// ``JSONObject/forEachChangedRun(from:_:)``): removes and descents now,
    /// adds collected in `added`.
    private mutating func diffRuns(
        _ oldKeys: [String], _ oldValues: [JSONValue], _ newKeys: [String], _ newValues: [JSONValue],
        added: inout [(key: String, value: JSONValue)]
    ) {
        if JSONValue.sameBuffer(oldKeys, newKeys) {
            var index = 0
            while index < oldKeys.count {
                index += JSONValue.identicalRun(
                    oldValues, from: index, newValues, from: index, forwards: true, limit: oldKeys.count - index
                )
                guard index < oldKeys.count else { break }
                descend(oldKeys[index], oldValues[index], newValues[index])
                index += 1
            }
            return
        }
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < oldKeys.count || newIndex < newKeys.count {
            let order: Int
            if oldIndex == oldKeys.count {
                order = 1
            } else if newIndex == newKeys.count {
                order = -1
            } else {
                order = UTF8Bytes.compare(oldKeys[oldIndex], newKeys[newIndex])
            }
            if order < 0 {
                emitRemove(oldKeys[oldIndex])
                oldIndex += 1
            } else if order > 0 {
                added.append((newKeys[newIndex], newValues[newIndex]))
                newIndex += 1
            } else {
                descend(oldKeys[oldIndex], oldValues[oldIndex], newValues[newIndex])
                oldIndex += 1
                newIndex += 1
            }
        }
    }
}
