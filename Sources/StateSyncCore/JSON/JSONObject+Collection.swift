extension JSONObject: RandomAccessCollection {
    /// A key and its value.
    public typealias Element = (key: String, value: JSONValue)
    /// Positions are offsets in key order.
    public typealias Index = Int

    /// The position of the first entry.
    public var startIndex: Int { 0 }

    /// The position one past the last entry.
    public var endIndex: Int { count }

    /// The entry at `position`, in key order: O(1) for a flat (small)
    /// object, O(log n) for a tree.
    public subscript(position: Int) -> Element {
        entry(at: position)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object from a literal (`["title": "Milk", "done": false]`); a
    /// repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Equatable {
    /// Equal when both hold the same keys with equal values (see
    /// ``JSONValue/==(_:_:)``). Shared storage is recognised in O(1).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.storage.equals(rhs.storage)
    }
}

extension JSONObject: Hashable {
    /// Hashes keys and values in key order, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        forEachRun { keys, values in
            for (index, key) in keys.enumerated() {
                JSONValue.hashUTF8(key, into: &hasher)
                values[index].hash(into: &hasher)
            }
        }
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text.
    public var description: String { JSONValue.object(self).description }
}
