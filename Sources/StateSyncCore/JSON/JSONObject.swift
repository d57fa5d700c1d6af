public import OrderedCollections

/// A JSON object: string keys mapped to ``JSONValue``s.
///
/// Keys are always in ascending order of their UTF-8 bytes, so equal objects
/// serialize to the same bytes (one frame for many clients, byte-exact journal
/// replay). Beyond 64 keys it is a B+tree whose versions share structure:
/// changing or finding a key costs O(log n). Keys compare by `String` equality:
/// `"é"` and `"e\u{301}"` name the same entry.
///
/// ```swift
/// var object: JSONObject = ["b": 2, "a": 1]
/// object["c"] = "three"
/// Array(object.keys)   // ["a", "b", "c"]
/// ```
public struct JSONObject: Sendable {
    /// The entries, kept sorted by the UTF-8 bytes of their keys.
    private(set) var storage: JSONObjectStorage

    /// An empty object.
    public init() {
        storage = .flat([:])
    }

    /// Builds an object from keys that are already unique and sorted by
    /// ``precedes(_:_:)``; the caller guarantees both (the parser and the
    /// decoder check them as they go). O(n).
    package init(uncheckedSortedKeys keys: [String], values: [JSONValue]) {
        storage = JSONObjectStorage(sortedKeys: keys, values: values)
    }

    /// Builds an object from key-value pairs in any order; a repeated key keeps
    /// its **last** value, as in a JavaScript object literal
    /// (`[("b", 2), ("a", 1), ("b", 3)]` gives `{"a":1,"b":3}`).
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
            storage = .flat([:])
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
        storage = JSONObjectStorage(sortedKeys: keys, values: values)
    }

    /// The number of keys.
    public var count: Int { storage.count() }

    /// Whether the object has no keys.
    public var isEmpty: Bool { count == 0 }

    /// The keys in their deterministic (UTF-8 byte) order. O(1) for a flat
    /// (small) object, O(n) for a tree (the set is built).
    public var keys: OrderedSet<String> {
        storage.keySet()
    }

    /// The values, in the order of their keys. O(1) for a flat (small)
    /// object, O(n) for a tree (the collection is built).
    public var values: OrderedDictionary<String, JSONValue>.Values {
        storage.valueCollection()
    }

    /// The value for `key`, or `nil` when the key is absent. Setting `nil`
    /// removes the key; setting a value inserts the key at its sorted place.
    /// O(log n) for a large object, even when another copy shares it.
    public subscript(key: String) -> JSONValue? {
        get {
            storage.value(forKey: key)
        }
        set {
            guard let newValue else {
                removeValue(forKey: key)
                return
            }
            if var dictionary = storage.takeFlat() {
                if let index = dictionary.index(forKey: key) {
                    dictionary.values[index] = newValue
                } else if dictionary.count < JSONObjectStorage.flatCapacity {
                    dictionary.updateValue(newValue, forKey: key, insertingAt: Self.insertionIndex(for: key, in: dictionary.keys))
                } else {
                    var tree = JSONObjectTree(sortedKeys: dictionary.keys.elements, values: dictionary.values.elements)
                    tree.insert(key, newValue, at: tree.insertionIndex(for: key))
                    storage = .tree(tree)
                    return
                }
                storage = .flat(dictionary)
                return
            }
            var tree = storage.takeTree()
            if let index = tree.index(forKey: key) {
                tree.withValue(at: index) { $0 = newValue }
            } else {
                tree.insert(key, newValue, at: tree.insertionIndex(for: key))
            }
            storage = .tree(tree)
        }
    }

    /// The keys in order, as an array: O(1) sharing the object's storage for
    /// a flat (small) object, built in O(n) for a tree.
    package var keyArray: [String] {
        storage.keyArray()
    }

    /// The values in key order, as an array: O(1) sharing the object's
    /// storage for a flat (small) object, built in O(n) for a tree.
    package var valueArray: [JSONValue] {
        storage.valueArray()
    }

    /// Calls `body` with runs of keys and values (parallel arrays sharing the
    /// object's storage) that together are the entries in key order; no
    /// array is built.
    package func forEachRun(_ body: (_ keys: [String], _ values: [JSONValue]) -> Void) {
        storage.forEachRun(body)
    }

    /// Calls `body` with pairs of runs of entries (old and new keys and values,
    /// in key order) that together hold every difference from `old`; parts two
    /// large objects share are skipped (O(log n) per changed key).
    package func forEachChangedRun(
        from old: JSONObject,
        _ body: (_ oldKeys: [String], _ oldValues: [JSONValue], _ newKeys: [String], _ newValues: [JSONValue]) -> Void
    ) {
        storage.forEachChangedRun(from: old.storage, body)
    }

    /// Removes `key` and returns its value, or `nil` when it was absent.
    /// O(log n) for a large object, even when another copy shares it.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        if var dictionary = storage.takeFlat() {
            defer { storage = .flat(dictionary) }
            return dictionary.removeValue(forKey: key)
        }
        var tree = storage.takeTree()
        guard let index = tree.index(forKey: key) else {
            storage = .tree(tree)
            return nil
        }
        let removed = tree.remove(at: index)
        storage = tree.count < JSONObjectStorage.treeMinimum
            ? .flat(OrderedDictionary(uncheckedUniqueKeys: tree.keys, values: tree.values))
            : .tree(tree)
        return removed
    }

    /// Runs `body` on the value for `key` in place (no copy of the value), or
    /// returns `nil` without calling it when the key is absent.
    package mutating func withValue<R, E: Error>(
        forKey key: String,
        _ body: (inout JSONValue) throws(E) -> R
    ) throws(E) -> R? {
        if var dictionary = storage.takeFlat() {
            defer { storage = .flat(dictionary) }
            guard let index = dictionary.index(forKey: key) else { return nil }
            return try body(&dictionary.values[index])
        }
        var tree = storage.takeTree()
        defer { storage = .tree(tree) }
        guard let index = tree.index(forKey: key) else { return nil }
        return try tree.withValue(at: index, body)
    }

    /// The entry at `position` (in `0..<count`), in key order.
    package func entry(at position: Int) -> (key: String, value: JSONValue) {
        storage.entry(at: position)
    }

    /// Whether both objects share the same storage: `true` means equal, found
    /// in O(1); `false` says nothing. A copy shares storage until one side
    /// changes, so the diff skips unchanged subtrees.
    package func isIdentical(to other: JSONObject) -> Bool {
        storage.isIdentical(to: other.storage)
    }

    /// The position at which `key` keeps `keys` sorted (binary search).
    private static func insertionIndex(for key: String, in keys: OrderedSet<String>) -> Int {
        var low = 0
        var high = keys.count
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
