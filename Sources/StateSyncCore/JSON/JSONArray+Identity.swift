extension JSONArray {
    /// Whether `self` and `other` are known to be equal in O(1): they share
    /// their storage (the flat buffer, or the chunk list). `false` says
    /// nothing (they may still be equal).
    package func isIdentical(to other: JSONArray) -> Bool {
        guard count == other.count else { return false }
        if isEmpty { return true }
        if isChunked != other.isChunked { return false }
        return isChunked ? JSONValue.sameBuffer(chunks, other.chunks) : JSONValue.sameBuffer(flat, other.flat)
    }
}

extension JSONArray: Equatable {
    /// Element by element with JSON equality (``JSONValue/==(_:_:)``); runs
    /// of elements in chunks both sides share are skipped a chunk at a time.
    public static func == (lhs: JSONArray, rhs: JSONArray) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isIdentical(to: rhs) { return true }
        var position = 0
        while position < lhs.count {
            position += JSONValue.identicalRun(lhs, from: position, rhs, from: position, forwards: true, limit: lhs.count - position)
            guard position < lhs.count else { break }
            guard lhs[position] == rhs[position] else { return false }
            position += 1
        }
        return true
    }
}

extension JSONArray: Hashable {
    /// Hashes the count and every element, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { element.hash(into: &hasher) }
    }
}

extension JSONValue {
    /// How many elements in a row, from `oldStart` and `newStart` stepping
    /// forwards (or backwards), have the same representation, up to `limit`; a
    /// chunk both arrays share at the same offset is skipped at once.
    package static func identicalRun(
        _ old: JSONArray, from oldStart: Int,
        _ new: JSONArray, from newStart: Int,
        forwards: Bool, limit: Int
    ) -> Int {
        if !old.isChunked && !new.isChunked {
            return identicalRun(old.flat, from: oldStart, new.flat, from: newStart, forwards: forwards, limit: limit)
        }
        let step = forwards ? 1 : -1
        var run = 0
        while run < limit {
            let (oldElements, oldOffset) = old.segment(containing: oldStart + run * step)
            let (newElements, newOffset) = new.segment(containing: newStart + run * step)
            let room = forwards
                ? min(oldElements.count - oldOffset, newElements.count - newOffset)
                : min(oldOffset, newOffset) + 1
            let span = min(room, limit - run)
            if oldOffset == newOffset && sameBuffer(oldElements, newElements) {
                run += span
                continue
            }
            let same = identicalRun(oldElements, from: oldOffset, newElements, from: newOffset, forwards: forwards, limit: span)
            run += same
            if same < span { break }
        }
        return run
    }
}
