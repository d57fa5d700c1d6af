extension JSONArray: RangeReplaceableCollection {
    /// Replaces the elements in `range` with `newElements`. One element in or
    /// out copies only its chunk and the chunk list; a wider replacement
    /// rebuilds the chunks it touches. O(n) at worst.
    public mutating func replaceSubrange<C: Collection<JSONValue>>(_ range: Range<Int>, with newElements: C) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "JSONArray range \(range) out of range 0..<\(count)")
        guard isChunked else {
            flat.replaceSubrange(range, with: newElements)
            if flat.count > Self.chunkingThreshold { self = JSONArray(flat) }
            return
        }
        if range.isEmpty && newElements.count == 1 {
            insert(newElements.first!, at: range.lowerBound)
        } else if range.count == 1 && newElements.isEmpty {
            remove(at: range.lowerBound)
        } else {
            rebuild(range, with: Array(newElements))
        }
    }

    /// Inserts `element` at `position` (`count` appends). Copies only the
    /// chunk it lands in when that chunk is shared.
    public mutating func insert(_ element: JSONValue, at position: Int) {
        guard isChunked else {
            flat.insert(element, at: position)
            if flat.count > Self.chunkingThreshold { self = JSONArray(flat) }
            return
        }
        precondition(position >= 0 && position <= count, "JSONArray index \(position) out of range 0...\(count)")
        let (chunk, offset) = location(of: position)
        chunks[chunk].elements.insert(element, at: offset)
        for index in chunk..<chunks.count { chunks[index].end += 1 }
        if chunks[chunk].elements.count > Self.maximumChunkSize { split(chunk) }
    }

    /// Appends `element`.
    public mutating func append(_ element: JSONValue) {
        insert(element, at: count)
    }

    /// Removes and returns the element at `position`. Copies only the chunk
    /// it was in when that chunk is shared.
    @discardableResult
    public mutating func remove(at position: Int) -> JSONValue {
        guard isChunked else { return flat.remove(at: position) }
        precondition(position >= 0 && position < count, "JSONArray index \(position) out of range 0..<\(count)")
        let (chunk, offset) = location(of: position)
        let removed = chunks[chunk].elements.remove(at: offset)
        for index in chunk..<chunks.count { chunks[index].end -= 1 }
        if count < Self.flatteningThreshold {
            self = JSONArray(Array(self))
        } else if chunks[chunk].elements.count < Self.minimumChunkSize {
            merge(chunk)
        }
        return removed
    }

    /// Reserves room for `minimumCapacity` elements when the array is flat.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if !isChunked && minimumCapacity <= Self.chunkingThreshold { flat.reserveCapacity(minimumCapacity) }
    }

    /// Splits chunk `index` into two halves.
    private mutating func split(_ index: Int) {
        let elements = chunks[index].elements
        let half = elements.count / 2
        let first = JSONArrayChunk(elements: Array(elements[..<half]), end: start(ofChunk: index) + half)
        chunks[index].elements = Array(elements[half...])
        chunks.insert(first, at: index)
    }

    /// Merges chunk `index`, which became too small, with a neighbour,
    /// splitting the result again when it is too large.
    private mutating func merge(_ index: Int) {
        guard chunks.count > 1 else { return }
        let left = index > 0 ? index - 1 : index
        let merged = chunks[left].elements + chunks[left + 1].elements
        chunks[left + 1].elements = merged
        chunks.remove(at: left)
        if merged.count > Self.maximumChunkSize { split(left) }
    }

    /// Replaces `range` with `newElements` by re-cutting the chunks from the
    /// one holding the range's start to the one holding its end.
    private mutating func rebuild(_ range: Range<Int>, with newElements: [JSONValue]) {
        let first = location(of: range.lowerBound).chunk
        let last = location(of: Swift.max(range.upperBound - 1, range.lowerBound)).chunk
        let firstStart = start(ofChunk: first)
        var middle = Array(chunks[first].elements[..<(range.lowerBound - firstStart)])
        middle += newElements
        middle += chunks[last].elements[Swift.min(range.upperBound - start(ofChunk: last), chunks[last].elements.count)...]
        let growth = newElements.count - range.count
        var rebuilt = Array(chunks[..<first])
        rebuilt += Self.chunked(middle[...], startingAt: firstStart)
        for var chunk in chunks[(last + 1)...] {
            chunk.end += growth
            rebuilt.append(chunk)
        }
        chunks = rebuilt
        if count < Self.flatteningThreshold { self = JSONArray(Array(self)) }
    }
}
