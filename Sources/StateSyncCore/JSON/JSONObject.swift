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
        let entries = Array(pairs)
        guard entries.allSatisfy({ $0.0.utf8.allSatisfy { $0 < 0x80 } }) else {
            // Canonically equivalent non-ASCII keys are one key to Swift but
            // need not sort next to each other: insert one by one instead.
            storage = [:]
            for (key, value) in entries { self[key] = value }
            return
        }
        // Ties keep input order (by position), so the last of equal keys
        // is the one kept below.
        let order = entries.indices.sorted { left, right in
            let comparison = UTF8Bytes.compare(entries[left].0, entries[right].0)
            return comparison < 0 || (comparison == 0 && left < right)
        }
        var keys: [String] = []
        var values: [JSONValue] = []
        keys.reserveCapacity(entries.count)
        values.reserveCapacity(entries.count)
        for (key, value) in order.lazy.map({ entries[$0] }) {
            if let last = keys.last, last == key {
                values[values.count - 1] = value
            } else {
                keys.append(key)
                values.append(value)
            }
        }
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
