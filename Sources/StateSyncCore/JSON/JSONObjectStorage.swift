import OrderedCollections

/// How a ``JSONObject`` holds its sorted entries: flat up to ``flatCapacity``
/// keys, a ``JSONObjectTree`` beyond, flat again only below ``treeMinimum``, so
/// an object hovering around one size does not switch back and forth.
enum JSONObjectStorage: Sendable {
    /// The entries in one ordered dictionary.
    case flat(OrderedDictionary<String, JSONValue>)
    /// The entries in a B+tree.
    case tree(JSONObjectTree)

    /// The most keys an object holds flat. Inserting one key into a flat
    /// object that another version shares copies all of it, which at this
    /// size still costs less than a tree's path.
    static let flatCapacity = 64
    /// Below this many keys a tree is made flat again.
    static let treeMinimum = 32

    /// The storage of `keys` (unique, sorted) and their `values`, in O(n).
    init(sortedKeys keys: [String], values: [JSONValue]) {
        if keys.count > Self.flatCapacity {
            self = .tree(JSONObjectTree(sortedKeys: keys, values: values))
        } else {
            self = .flat(OrderedDictionary(uncheckedUniqueKeys: keys, values: values))
        }
    }

    /// Moves a flat dictionary out, leaving an empty one, so the caller changes
    /// it without a copy; `nil` for a tree. (A `switch` binding the payload
    /// keeps a second reference: see ``JSONValue/takeArray()``.)
    mutating func takeFlat() -> OrderedDictionary<String, JSONValue>? {
        guard case .flat(let dictionary) = self else { return nil }
        self = .flat([:])
        return dictionary
    }

    /// Moves the tree out of storage that ``takeFlat()`` found not flat,
    /// leaving an empty flat dictionary in its place.
    mutating func takeTree() -> JSONObjectTree {
        guard case .tree(let tree) = self else { preconditionFailure("takeTree() on a flat object") }
        self = .flat([:])
        return tree
    }

    // The reads below are `borrowing` so that the payload is read in place:
    // binding it in a `switch` of a copy would retain and release the
    // flat dictionary's three buffers around every call made with it.

    /// The number of entries.
    borrowing func count() -> Int {
        switch self {
        case .flat(let dictionary): dictionary.count
        case .tree(let tree): tree.count
        }
    }

    /// The value of `key` (Swift `String` equality), or `nil`.
    borrowing func value(forKey key: String) -> JSONValue? {
        switch self {
        case .flat(let dictionary): dictionary[key]
        case .tree(let tree): tree.index(forKey: key).map { tree.entry(at: $0).value }
        }
    }

    /// The entry at `position`.
    borrowing func entry(at position: Int) -> (key: String, value: JSONValue) {
        switch self {
        case .flat(let dictionary): (dictionary.keys[position], dictionary.values[position])
        case .tree(let tree): tree.entry(at: position)
        }
    }

    /// The keys in order: the flat storage's own array, or built from a tree.
    borrowing func keyArray() -> [String] {
        switch self {
        case .flat(let dictionary): dictionary.keys.elements
        case .tree(let tree): tree.keys
        }
    }

    /// The values in key order: the flat storage's own array, or built from a tree.
    borrowing func valueArray() -> [JSONValue] {
        switch self {
        case .flat(let dictionary): dictionary.values.elements
        case .tree(let tree): tree.values
        }
    }

    /// The keys as an ordered set: the flat storage's own, or built from a tree.
    borrowing func keySet() -> OrderedSet<String> {
        switch self {
        case .flat(let dictionary): dictionary.keys
        case .tree(let tree): OrderedSet(uncheckedUniqueElements: tree.keys)
        }
    }

    /// The values as an ordered dictionary's: the flat storage's own, or built from a tree.
    borrowing func valueCollection() -> OrderedDictionary<String, JSONValue>.Values {
        switch self {
        case .flat(let dictionary): dictionary.values
        case .tree(let tree): OrderedDictionary(uncheckedUniqueKeys: tree.keys, values: tree.values).values
        }
    }

    /// Calls `body` with runs of keys and values that together are the entries in order.
    borrowing func forEachRun(_ body: ([String], [JSONValue]) -> Void) {
        switch self {
        case .flat(let dictionary): body(dictionary.keys.elements, dictionary.values.elements)
        case .tree(let tree): tree.forEachRun(body)
        }
    }

    /// Whether both are the very same storage (then they are equal).
    borrowing func isIdentical(to other: borrowing JSONObjectStorage) -> Bool {
        switch self {
        case .flat(let left):
            switch other {
            case .flat(let right):
                left.count == right.count
                    && JSONValue.sameBuffer(left.values.elements, right.values.elements)
                    && JSONValue.sameBuffer(left.keys.elements, right.keys.elements)
            case .tree: false
            }
        case .tree(let left):
            switch other {
            case .tree(let right): left.root === right.root
            case .flat: false
            }
        }
    }

    /// Whether both hold the same keys (same UTF-8 bytes) with equal values.
    borrowing func equals(_ other: borrowing JSONObjectStorage) -> Bool {
        switch self {
        case .flat(let left):
            switch other {
            case .flat(let right):
                guard left.count == right.count else { return false }
                return Self.equal(left.keys.elements, left.values.elements, right.keys.elements, right.values.elements)
            case .tree: return false   // a tree holds more keys than a flat object can
            }
        case .tree(let left):
            switch other {
            case .tree(let right):
                guard left.count == right.count else { return false }
                // Only where the trees differ: shared nodes are equal.
                var equal = true
                JSONObjectNode.forEachChangedRun(left.root, right.root) { leftKeys, leftValues, rightKeys, rightValues in
                    equal = equal && leftKeys.count == rightKeys.count
                        && Self.equal(leftKeys, leftValues, rightKeys, rightValues)
                }
                return equal
            case .flat: return false
            }
        }
    }

    /// Whether two objects' entries, as parallel arrays of the same length,
    /// are equal: same key bytes, equal values.
    private static func equal(_ leftKeys: [String], _ leftValues: [JSONValue], _ rightKeys: [String], _ rightValues: [JSONValue]) -> Bool {
        // Shared buffers are equal in O(1).
        let sameKeys = JSONValue.sameBuffer(leftKeys, rightKeys)
        if sameKeys && JSONValue.sameBuffer(leftValues, rightValues) { return true }
        for index in leftKeys.indices {
            if !sameKeys && !UTF8Bytes.equal(leftKeys[index], rightKeys[index]) { return false }
            if leftValues[index] != rightValues[index] { return false }
        }
        return true
    }

    /// Calls `body` with pairs of runs holding every difference from `old` (see
    /// ``JSONObject/forEachChangedRun(from:_:)``): two trees side by side,
    /// skipping what they share; any other pair is one pair of runs.
    borrowing func forEachChangedRun(
        from old: borrowing JSONObjectStorage,
        _ body: (_ oldKeys: [String], _ oldValues: [JSONValue], _ newKeys: [String], _ newValues: [JSONValue]) -> Void
    ) {
        switch self {
        case .tree(let new):
            switch old {
            case .tree(let oldTree): JSONObjectNode.forEachChangedRun(oldTree.root, new.root, body)
            case .flat: body(old.keyArray(), old.valueArray(), new.keys, new.values)
            }
        case .flat:
            body(old.keyArray(), old.valueArray(), keyArray(), valueArray())
        }
    }
}
