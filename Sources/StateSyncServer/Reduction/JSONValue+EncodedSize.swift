import StateSyncCore

extension JSONValue {
    /// About how many bytes this value takes as compact JSON (escapes are not
    /// counted). The walk stops once the count passes `limit`, so checking a
    /// bound costs at most about `limit` bytes' worth of nodes.
    func estimatedJSONBytes(upTo limit: Int = .max) -> Int {
        var total = 0
        addEstimatedBytes(to: &total, limit: limit)
        return total
    }

    private func addEstimatedBytes(to total: inout Int, limit: Int) {
        guard total <= limit else { return }
        switch self {
        case .null: total += 4
        case .bool(let value): total += value ? 4 : 5
        case .integer(let value): total += Self.digits(value)
        case .double: total += 24
        case .string(let text): total += text.utf8.count + 2
        case .array(let elements):
            total += Self.containerBytes(elements.count)
            for element in elements {
                element.addEstimatedBytes(to: &total, limit: limit)
                guard total <= limit else { return }
            }
        case .object(let members):
            total += Self.containerBytes(members.count)
            for (key, value) in members {
                total += key.utf8.count + 3
                value.addEstimatedBytes(to: &total, limit: limit)
                guard total <= limit else { return }
            }
        }
    }

    /// How much ``estimatedJSONBytes(upTo:)`` grew from `old` (negative when it
    /// shrank). Parts sharing storage with `old` cost O(1).
    func estimatedJSONBytesGrowth(from old: JSONValue) -> Int {
        if isIdentical(to: old) { return 0 }
        switch (self, old) {
        case let (.object(new), .object(previous)):
            var growth = Self.containerBytes(new.count) - Self.containerBytes(previous.count)
            for (key, value) in new {
                if let before = previous[key] {
                    growth += value.estimatedJSONBytesGrowth(from: before)
                } else {
                    growth += Self.memberBytes(key, value)
                }
            }
            for (key, value) in previous where new[key] == nil {
                growth -= Self.memberBytes(key, value)
            }
            return growth
        case let (.array(new), .array(previous)):
            var growth = Self.containerBytes(new.count) - Self.containerBytes(previous.count)
            for index in new.indices {
                growth += index < previous.count
                    ? new[index].estimatedJSONBytesGrowth(from: previous[index]) : new[index].estimatedJSONBytes()
            }
            for index in previous.indices where index >= new.count {
                growth -= previous[index].estimatedJSONBytes()
            }
            return growth
        default:
            return estimatedJSONBytes() - old.estimatedJSONBytes()
        }
    }

    /// An object member: its key, quotes and colon, and its value (the
    /// comma before it is the container's, see ``containerBytes(_:)``).
    static func memberBytes(_ key: String, _ value: JSONValue) -> Int {
        key.utf8.count + 3 + value.estimatedJSONBytes()
    }

    /// A container's brackets and the commas between its `count` items.
    static func containerBytes(_ count: Int) -> Int {
        1 + Swift.max(1, count)
    }

    private static func digits(_ value: Int64) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
