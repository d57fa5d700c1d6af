import StateSyncCore

extension JSONValue {
    /// This value, with every part equal to `old`'s part at the same place
    /// sharing its storage. Scalars are equal only in the same representation (`1`
    /// and `1.0` differ), so the mirror serializes exactly like a full encode.
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
