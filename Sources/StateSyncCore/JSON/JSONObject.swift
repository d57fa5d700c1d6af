public import OrderedCollections

/// A JSON object: string keys mapped to ``JSONValue``s.
///
/// Keys are always kept in ascending order of their UTF-8 bytes, whatever
/// order they were inserted or parsed in. That order is what iteration and
/// serialization use, so two equal objects always produce the same bytes
/// (which lets the server encode a frame once and send it to many clients,
/// and makes journal replay reproducible byte for byte).
///
/// Like `Array` and `Dictionary`, a `JSONObject` is a copy-on-write value.
///
/// Key lookup uses Swift `String` equality, so two keys that are canonically
/// equivalent Unicode (`"é"` precomposed and `"e\u{301}"`) name the same entry.
///
/// ```swift
/// var object: JSONObject = ["b": 2, "a": 1]
/// object["c"] = "three"
/// Array(object.keys)   // ["a", "b", "c"]
/// ```
public struct JSONObject: Sendable {
    /// The entries, kept sorted by the UTF-8 bytes of their keys.
    package private(set) var storage: OrderedDictionary<String, JSONValue>

    /// An empty object.
    public init() {
        storage = [:]
    }

    /// Builds an object from keys that are already unique and sorted by
    /// ``precedes(_:_:)``; the caller guarantees both (the parser and the
    /// decoder check them as they go).
    package init(uncheckedSortedKeys keys: [String], values: [JSONValue]) {
        storage = OrderedDictionary(uncheckedUniqueKeys: keys, values: values)
    }

    /// Builds an object from key-value pairs in any order. When a key occurs
    /// more than once, the **last** value wins (as in a JavaScript object
    /// literal).
    ///
    /// ```swift
    /// JSONObject([("b", 2), ("a", 1), ("b", 3)])   // {"a":1,"b":3}
    /// ```
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(pairs.underestimatedCount)
        values.reserveCapacity(pairs.underestimatedCount)
        for (key, value) in pairs {
            keys.append(key)
            values.append(value)
        }
        self.init(unsortedKeys: keys, values: values)
    }

    /// Builds an object from parallel arrays of keys and values in any
    /// order; a repeated key keeps its last value.
    package init(unsortedKeys keys: consuming [String], values: consuming [JSONValue]) {
        guard keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else {
            // Canonically equivalent non-ASCII keys are one key to Swift but
            // need not sort next to each other: insert one by one instead.
            storage = [:]
            for (key, value) in zip(keys, values) { self[key] = value }
            return
        }
        // A stable sort keeps equal keys in input order, so the last of
        // them is the one kept below. Objects built by the encoder are
        // small: an insertion sort beats the general sort there.
        if keys.count <= 16 {
            for index in keys.indices.dropFirst() {
                var position = index
                while position > 0 && UTF8Bytes.compare(keys[position - 1], keys[position]) > 0 {
                    keys.swapAt(position - 1, position)
                    values.swapAt(position - 1, position)
                    position -= 1
                }
            }
        } else {
            let order = keys.indices.sorted { left, right in
                let comparison = UTF8Bytes.compare(keys[left], keys[right])
                return comparison < 0 || (comparison == 0 && left < right)
            }
            keys = order.map { keys[$0] }
            values = order.map { values[$0] }
        }
        // Drop all but the last of equal (adjacent) keys.
        var kept = 0
        for index in keys.indices {
            if kept > 0 && keys[kept - 1] == keys[index] {
                values[kept - 1] = values[index]
            } else {
                if kept != index {
                    keys[kept] = keys[index]
                    values[kept] = values[index]
                }
                kept += 1
            }
        }
        keys.removeLast(keys.count - kept)
        values.removeLast(values.count - kept)
        storage = OrderedDictionary(uncheckedUniqueKeys: keys, values: values)
    }

    /// The number of keys.
    public var count: Int { storage.count }

    /// Whether the object has no keys.
    public var isEmpty: Bool { storage.isEmpty }

    /// The keys in their deterministic (UTF-8 byte) order.
    public var keys: OrderedSet<String> { storage.keys }

    /// The values, in the order of their keys.
    public var values: OrderedDictionary<String, JSONValue>.Values { storage.values }

    /// The value for `key`, or `nil` when the key is absent. Setting `nil`
    /// removes the key; setting a value inserts the key at its sorted place.
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            guard let newValue else {
                storage.removeValue(forKey: key)
                return
            }
            if let index = storage.index(forKey: key) {
                storage.values[index] = newValue
            } else {
                storage.updateValue(newValue, forKey: key, insertingAt: insertionIndex(for: key))
            }
        }
    }

    /// The keys in order, as an array sharing the object's storage (O(1)).
    package var keyArray: [String] { storage.keys.elements }

    /// The values in key order, as an array sharing the object's storage (O(1)).
    package var valueArray: [JSONValue] { storage.values.elements }

    /// Removes `key` and returns its value, or `nil` when it was absent.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        storage.removeValue(forKey: key)
    }

    /// Runs `body` on the value for `key` in place (no copy of the value), or
    /// returns `nil` without calling it when the key is absent.
    package mutating func withValue<R, E: Error>(
        forKey key: String,
        _ body: (inout JSONValue) throws(E) -> R
    ) throws(E) -> R? {
        guard let index = storage.index(forKey: key) else { return nil }
        return try body(&storage.values[index])
    }

    /// Whether both objects share the same storage: `true` means they are
    /// equal, found in O(1). `false` says nothing (they may still be equal).
    ///
    /// A copy of an object shares its storage until one of them changes, so
    /// the diff uses this to skip unchanged subtrees without looking inside.
    package func isIdentical(to other: JSONObject) -> Bool {
        storage.count == other.storage.count
            && JSONValue.sameBuffer(valueArray, other.valueArray)
            && JSONValue.sameBuffer(keyArray, other.keyArray)
    }

    /// The position at which `key` keeps the keys sorted (binary search).
    private func insertionIndex(for key: String) -> Int {
        var low = 0
        var high = storage.count
        let keys = storage.keys
        while low < high {
            let middle = (low + high) / 2
            if JSONObject.precedes(keys[middle], key) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The key order: ascending by UTF-8 bytes.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        UTF8Bytes.compare(lhs, rhs) < 0
    }
}
