extension JSONObject: RandomAccessCollection {
    /// A key and its value.
    public typealias Element = (key: String, value: JSONValue)
    /// Positions are offsets in key order.
    public typealias Index = Int

    /// The position of the first entry.
    public var startIndex: Int { 0 }

    /// The position one past the last entry.
    public var endIndex: Int { count }

    /// The entry at `position`, in key order.
    public subscript(position: Int) -> Element {
        (keyArray[position], valueArray[position])
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object from a literal; a repeated key keeps its last value.
    ///
    /// ```swift
    /// let object: JSONObject = ["title": "Milk", "done": false]
    /// ```
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Equatable {
    /// Equal when both hold the same keys with equal values (see
    /// ``JSONValue/==(_:_:)``). Shared storage is recognised in O(1).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isIdentical(to: rhs) { return true }
        // Both sides keep keys in the same order, so equal objects line up.
        let leftKeys = lhs.keyArray
        let rightKeys = rhs.keyArray
        let sameKeys = JSONValue.sameBuffer(leftKeys, rightKeys)
        let leftValues = lhs.valueArray
        let rightValues = rhs.valueArray
        for index in leftKeys.indices {
            if !sameKeys && !UTF8Bytes.equal(leftKeys[index], rightKeys[index]) { return false }
            if leftValues[index] != rightValues[index] { return false }
        }
        return true
    }
}

extension JSONObject: Hashable {
    /// Hashes keys and values in key order, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        let values = valueArray
        for (index, key) in keyArray.enumerated() {
            JSONValue.hashUTF8(key, into: &hasher)
            values[index].hash(into: &hasher)
        }
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text.
    public var description: String { JSONValue.object(self).description }
}
