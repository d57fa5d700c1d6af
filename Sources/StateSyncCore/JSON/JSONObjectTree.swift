/// The storage of a large ``JSONObject``: a copy-on-write B+tree of
/// ``JSONObjectNode``s; a change copies only its path when another version
/// shares the tree, and every key or position operation is O(log n).
struct JSONObjectTree: Sendable {
    /// How full a bulk build fills each node, leaving room to insert
    /// before the first splits.
    static let bulkWidth = 48

    /// The root: a leaf, or a branch of at least two children.
    private(set) var root: JSONObjectNode
    /// The keys that are not pure ASCII. `String` equality is canonical
    /// equivalence, so only such a key can equal one with other bytes: a lookup
    /// that misses in byte order looks here (a `Set` hashes them alike).
    private var nonASCIIKeys: Set<String>

    /// The tree of `keys` (unique, sorted by UTF-8 bytes, at least one) and
    /// their `values`, built bottom-up in O(n).
    init(sortedKeys keys: [String], values: [JSONValue]) {
        var level: [JSONObjectNode] = Self.groups(of: keys.count).map { range in
            JSONObjectNode(keys: Array(keys[range]), values: Array(values[range]))
        }
        while level.count > 1 {
            let nodes = level
            level = Self.groups(of: nodes.count).map { JSONObjectNode(children: Array(nodes[$0])) }
        }
        root = level[0]
        nonASCIIKeys = Set(keys.lazy.filter { !Self.isASCII($0) })
    }

    /// `0..<total` cut into ranges of at most ``bulkWidth``, as even as can be.
    private static func groups(of total: Int) -> [Range<Int>] {
        let count = (total + bulkWidth - 1) / bulkWidth
        return (0..<count).map { ($0 * total / count)..<(($0 + 1) * total / count) }
    }

    /// The number of entries.
    var count: Int { root.count }

    /// The entry at `position`, in key order.
    func entry(at position: Int) -> (key: String, value: JSONValue) {
        root.entry(at: position)
    }

    /// The position of the entry whose key equals `key` (Swift `String`
    /// equality), or `nil`. O(log n).
    func index(forKey key: String) -> Int? {
        let (position, found) = root.lowerBound(key)
        if found { return position }
        // (An all-ASCII tree, the common case, skips hashing `key`.)
        if !nonASCIIKeys.isEmpty, let stored = nonASCIIKeys.firstIndex(of: key) {
            return root.lowerBound(nonASCIIKeys[stored]).position
        }
        guard !Self.isASCII(key), let spelling = Self.asciiSpelling(of: key) else { return nil }
        let (asciiPosition, asciiFound) = root.lowerBound(spelling)
        return asciiFound ? asciiPosition : nil
    }

    /// The ASCII key equal to `key` by `String` equality (the Kelvin sign
    /// spelled "K", for one), or `nil` when some character equals no ASCII
    /// character.
    private static func asciiSpelling(of key: String) -> String? {
        var spelling = ""
        for character in key {
            if character.unicodeScalars.allSatisfy(\.isASCII) {
                spelling.append(character)
            } else if let ascii = asciiCharacters.first(where: { $0 == character }) {
                spelling.append(ascii)
            } else {
                return nil
            }
        }
        return spelling
    }

    /// The 128 ASCII characters, each a single scalar.
    private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// Where `key`, absent, goes to keep the keys sorted.
    func insertionIndex(for key: String) -> Int {
        root.lowerBound(key).position
    }

    /// The keys, in order (O(n)).
    var keys: [String] { root.allKeys }

    /// The values, in key order (O(n)).
    var values: [JSONValue] { root.allValues }

    /// Calls `body` with runs of keys and values that together are the
    /// entries in order.
    func forEachRun(_ body: ([String], [JSONValue]) -> Void) {
        root.forEachLeaf(body)
    }

    /// Inserts `key` (absent) with `value` at `position` (its sorted place).
    mutating func insert(_ key: String, _ value: JSONValue, at position: Int) {
        makeRootUnique()
        if !Self.isASCII(key) { nonASCIIKeys.insert(key) }
        if let sibling = root.insert(key, value, at: position) {
            root = JSONObjectNode(children: [root, sibling])
        }
    }

    /// Removes the entry at `position` and returns its value.
    mutating func remove(at position: Int) -> JSONValue {
        makeRootUnique()
        let (key, value) = root.remove(at: position)
        if !Self.isASCII(key) { nonASCIIKeys.remove(key) }
        if root.children.count == 1 { root = root.children[0] }
        return value
    }

    /// Runs `body` on the value at `position` in place.
    mutating func withValue<R, E: Error>(at position: Int, _ body: (inout JSONValue) throws(E) -> R) throws(E) -> R {
        makeRootUnique()
        return try root.withValue(at: position, body)
    }

    private mutating func makeRootUnique() {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
    }

    private static func isASCII(_ key: String) -> Bool {
        key.utf8.allSatisfy { $0 < 0x80 }
    }
}
