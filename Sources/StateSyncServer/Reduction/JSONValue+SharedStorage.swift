import StateSyncCore

extension JSONValue {
    /// This value, rebuilt so that every part equal to the part at the same
    /// place in `old` *is* `old`'s part (shares its storage); `old` itself
    /// when everything is equal.
    ///
    /// A freshly encoded region of the mirror shares nothing with the
    /// previous revision; after this, the history window holds one copy of
    /// the unchanged parts instead of one per revision, later diffs skip
    /// them in O(1), and dropping an old revision frees only what changed.
    /// Costs one walk of the value. Scalars count as equal only with the
    /// same representation (`1` and `1.0` differ), so the mirror still
    /// serializes exactly like a full encode.
    func sharingStorage(with old: JSONValue) -> JSONValue {
        switch (self, old) {
        case let (.object(new), .object(previous)):
            var result = new
            var allShared = new.count == previous.count
            for (key, value) in new {
                guard let before = previous[key] else {
                    allShared = false
                    continue
                }
                let shared = value.sharingStorage(with: before)
                if !shared.isIdentical(to: before) { allShared = false }
                result[key] = shared
            }
            return allShared ? old : .object(result)
        case let (.array(new), .array(previous)):
            var result = new
            var allShared = new.count == previous.count
            for index in new.indices {
                guard index < previous.count else {
                    allShared = false
                    continue
                }
                let shared = new[index].sharingStorage(with: previous[index])
                if !shared.isIdentical(to: previous[index]) { allShared = false }
                result[index] = shared
            }
            return allShared ? old : .array(result)
        default:
            return isIdentical(to: old) || sameScalar(as: old) ? old : self
        }
    }

    /// Equal scalars with the same representation.
    private func sameScalar(as other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.string(a), .string(b)): a == b
        default: false
        }
    }
}
