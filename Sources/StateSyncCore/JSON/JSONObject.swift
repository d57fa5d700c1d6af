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
public struct JSONObject: Sendable {
    /// The entries, kept sorted by the UTF-8 bytes of their keys.
    package private(set) var storage: OrderedDictionary<String, JSONValue>

    /// An empty object.
    public init() {
        storage = [:]
    }

    /// The number of keys.
    public var count: Int { storage.count }

    /// Whether the object has no keys.
    public var isEmpty: Bool { storage.isEmpty }

    /// The keys in their deterministic (UTF-8 byte) order.
    public var keys: OrderedSet<String> { storage.keys }

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
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
