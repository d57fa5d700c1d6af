/// A B+tree node of a ``JSONObjectTree``: a leaf holds `keys` and `values`, a
/// branch `children` with their first `keys` and entry `counts`; at most
/// ``maxWidth`` of them, at least ``minWidth`` unless it is the root.
///
/// `@unchecked Sendable` and `@exclusivity(unchecked)`: a node is mutated only
/// while uniquely referenced (checked on the way down), so no other thread or
/// overlapping access can reach it then.
final class JSONObjectNode: @unchecked Sendable {
    /// The most keys (leaf) or children (branch) a node holds before it splits.
    static let maxWidth = 64
    /// The fewest keys or children a node other than the root holds: below
    /// it the node is merged with, or takes entries from, a neighbour.
    static let minWidth = 16

    /// A leaf's keys, or the first key under each of a branch's children.
    @exclusivity(unchecked) var keys: [String]
    /// A leaf's values, parallel to `keys`; empty in a branch.
    @exclusivity(unchecked) var values: [JSONValue]
    /// A branch's children; empty in a leaf.
    @exclusivity(unchecked) var children: [JSONObjectNode]
    /// How many entries each child holds; empty in a leaf.
    @exclusivity(unchecked) var counts: [Int]
    /// How many entries the node holds, all its children included.
    @exclusivity(unchecked) var count: Int

    /// A leaf of `keys` (sorted, unique) and their `values`.
    init(keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
        children = []
        counts = []
        count = keys.count
    }

    /// A branch over `children` (non-empty, in key order).
    init(children: [JSONObjectNode]) {
        self.children = children
        keys = children.map { $0.keys[0] }
        counts = children.map(\.count)
        values = []
        count = counts.reduce(0, +)
    }

    private init(copying other: JSONObjectNode) {
        keys = other.keys
        values = other.values
        children = other.children
        counts = other.counts
        count = other.count
    }

    /// A node with the same contents (sharing the arrays until one changes).
    func copy() -> JSONObjectNode { JSONObjectNode(copying: self) }

    /// Whether the node holds entries rather than children.
    var isLeaf: Bool { children.isEmpty }

    /// The entry at `position` (in `0..<count`).
    func entry(at position: Int) -> (key: String, value: JSONValue) {
        var node = self
        var offset = position
        while !node.isLeaf {
            let index = node.child(containing: &offset)
            node = node.children[index]
        }
        return (node.keys[offset], node.values[offset])
    }

    /// The position of the first entry whose key does not sort before `key`
    /// (UTF-8 byte order), and whether that entry's key has `key`'s bytes.
    func lowerBound(_ key: String) -> (position: Int, found: Bool) {
        var node = self
        var position = 0
        while !node.isLeaf {
            // The last child whose first key does not sort after `key`.
            var low = 1
            var high = node.keys.count
            while low < high {
                let middle = (low + high) / 2
                if UTF8Bytes.compare(node.keys[middle], key) <= 0 { low = middle + 1 } else { high = middle }
            }
            for index in 0..<(low - 1) { position += node.counts[index] }
            node = node.children[low - 1]
        }
        var low = 0
        var high = node.keys.count
        while low < high {
            let middle = (low + high) / 2
            if UTF8Bytes.compare(node.keys[middle], key) < 0 { low = middle + 1 } else { high = middle }
        }
        return (position + low, low < node.keys.count && UTF8Bytes.equal(node.keys[low], key))
    }

    /// Calls `body` with each leaf's keys and values, in key order.
    func forEachLeaf(_ body: ([String], [JSONValue]) -> Void) {
        if isLeaf {
            body(keys, values)
        } else {
            for child in children { child.forEachLeaf(body) }
        }
    }

    /// The keys under this node, in order.
    var allKeys: [String] {
        guard !isLeaf else { return keys }
        var all: [String] = []
        all.reserveCapacity(count)
        forEachLeaf { leafKeys, _ in all.append(contentsOf: leafKeys) }
        return all
    }

    /// The values under this node, in key order.
    var allValues: [JSONValue] {
        guard !isLeaf else { return values }
        var all: [JSONValue] = []
        all.reserveCapacity(count)
        forEachLeaf { _, leafValues in all.append(contentsOf: leafValues) }
        return all
    }

    /// Calls `body` with the pairs of runs, in key order, where `old` and `new`
    /// (nodes over the same keys) may differ; shared subtrees, and branches cut
    /// at the same keys, are skipped.
    static func forEachChangedRun(
        _ old: JSONObjectNode, _ new: JSONObjectNode,
        _ body: (_ oldKeys: [String], _ oldValues: [JSONValue], _ newKeys: [String], _ newValues: [JSONValue]) -> Void
    ) {
        if old === new { return }
        if !old.isLeaf && !new.isLeaf && sameCuts(old, new) {
            for index in old.children.indices { forEachChangedRun(old.children[index], new.children[index], body) }
            return
        }
        body(old.allKeys, old.allValues, new.allKeys, new.allValues)
    }

    /// Whether two branches cut their range of keys at the same keys (the
    /// first key of each child but the first).
    private static func sameCuts(_ old: JSONObjectNode, _ new: JSONObjectNode) -> Bool {
        guard old.keys.count == new.keys.count else { return false }
        for index in old.keys.indices.dropFirst() where !UTF8Bytes.equal(old.keys[index], new.keys[index]) {
            return false
        }
        return true
    }

    // MARK: Mutations (on a uniquely referenced node)

    /// Inserts an entry at `position`; returns the new right half when the
    /// node grew past ``maxWidth`` and split.
    func insert(_ key: String, _ value: JSONValue, at position: Int) -> JSONObjectNode? {
        count += 1
        if isLeaf {
            keys.insert(key, at: position)
            values.insert(value, at: position)
        } else {
            var offset = position
            let index = child(insertingAt: &offset)
            makeChildUnique(index)
            let sibling = children[index].insert(key, value, at: offset)
            refresh(index)
            if let sibling {
                children.insert(sibling, at: index + 1)
                counts.insert(sibling.count, at: index + 1)
                keys.insert(sibling.keys[0], at: index + 1)
            }
        }
        return keys.count > Self.maxWidth ? split() : nil
    }

    /// Removes and returns the entry at `position`, merging or refilling a
    /// child left below ``minWidth``; this node may be left below it (its
    /// parent, or the tree for the root, fixes that).
    func remove(at position: Int) -> (key: String, value: JSONValue) {
        count -= 1
        if isLeaf {
            return (keys.remove(at: position), values.remove(at: position))
        }
        var offset = position
        let index = child(containing: &offset)
        makeChildUnique(index)
        let removed = children[index].remove(at: offset)
        if children[index].keys.count < Self.minWidth && children.count > 1 {
            rebalance(around: index)
        } else {
            refresh(index)
        }
        return removed
    }

    /// Runs `body` on the value at `position` in place.
    func withValue<R, E: Error>(at position: Int, _ body: (inout JSONValue) throws(E) -> R) throws(E) -> R {
        if isLeaf { return try body(&values[position]) }
        var offset = position
        let index = child(containing: &offset)
        makeChildUnique(index)
        return try children[index].withValue(at: offset, body)
    }

    // MARK: Helpers

    /// The child holding `offset`, which becomes the offset inside it.
    private func child(containing offset: inout Int) -> Int {
        var index = 0
        while offset >= counts[index] {
            offset -= counts[index]
            index += 1
        }
        return index
    }

    /// The child an entry inserted at `offset` goes into (at the end of the
    /// earlier child on a boundary); `offset` becomes the offset inside it.
    private func child(insertingAt offset: inout Int) -> Int {
        var index = 0
        while index < counts.count - 1 && offset > counts[index] {
            offset -= counts[index]
            index += 1
        }
        return index
    }

    /// Copies child `index` unless this node is its only owner.
    private func makeChildUnique(_ index: Int) {
        if !isKnownUniquelyReferenced(&children[index]) { children[index] = children[index].copy() }
    }

    /// Brings the first key and count of child `index` up to date.
    private func refresh(_ index: Int) {
        keys[index] = children[index].keys[0]
        counts[index] = children[index].count
    }

    /// Moves the upper half into a new node, returned.
    private func split() -> JSONObjectNode {
        let half = keys.count / 2
        let right: JSONObjectNode
        if isLeaf {
            right = JSONObjectNode(keys: Array(keys[half...]), values: Array(values[half...]))
            values.removeSubrange(half...)
        } else {
            right = JSONObjectNode(children: Array(children[half...]))
            children.removeSubrange(half...)
            counts.removeSubrange(half...)
        }
        keys.removeSubrange(half...)
        count -= right.count
        return right
    }

    /// Child `index` is short: merges it with a neighbour when both fit in
    /// one node, or else evens the two out.
    private func rebalance(around index: Int) {
        let left = index > 0 ? index - 1 : index
        let right = left + 1
        makeChildUnique(left)
        makeChildUnique(right)
        let leftNode = children[left]
        let rightNode = children[right]
        let total = leftNode.keys.count + rightNode.keys.count
        if total <= Self.maxWidth {
            leftNode.moveFirst(rightNode.keys.count, from: rightNode)
            children.remove(at: right)
            counts.remove(at: right)
            keys.remove(at: right)
        } else {
            let target = total / 2
            if leftNode.keys.count < target {
                leftNode.moveFirst(target - leftNode.keys.count, from: rightNode)
            } else {
                rightNode.moveLast(leftNode.keys.count - target, from: leftNode)
            }
            refresh(right)
        }
        refresh(left)
    }

    /// Moves the first `number` keys or children of `other` (the next node
    /// at the same level) to the end of this node.
    private func moveFirst(_ number: Int, from other: JSONObjectNode) {
        let moved = 0..<number
        keys.append(contentsOf: other.keys[moved])
        other.keys.removeSubrange(moved)
        let entries: Int
        if isLeaf {
            values.append(contentsOf: other.values[moved])
            other.values.removeSubrange(moved)
            entries = number
        } else {
            children.append(contentsOf: other.children[moved])
            other.children.removeSubrange(moved)
            entries = other.counts[moved].reduce(0, +)
            counts.append(contentsOf: other.counts[moved])
            other.counts.removeSubrange(moved)
        }
        count += entries
        other.count -= entries
    }

    /// Moves the last `number` keys or children of `other` (the previous
    /// node at the same level) to the start of this node.
    private func moveLast(_ number: Int, from other: JSONObjectNode) {
        let moved = (other.keys.count - number)..<other.keys.count
        keys.insert(contentsOf: other.keys[moved], at: 0)
        other.keys.removeSubrange(moved)
        let entries: Int
        if isLeaf {
            values.insert(contentsOf: other.values[moved], at: 0)
            other.values.removeSubrange(moved)
            entries = number
        } else {
            children.insert(contentsOf: other.children[moved], at: 0)
            other.children.removeSubrange(moved)
            entries = other.counts[moved].reduce(0, +)
            counts.insert(contentsOf: other.counts[moved], at: 0)
            other.counts.removeSubrange(moved)
        }
        count += entries
        other.count -= entries
    }
}
