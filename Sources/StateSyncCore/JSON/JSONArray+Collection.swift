extension JSONArray: RandomAccessCollection, MutableCollection {
    /// The position of the first element: 0.
    public var startIndex: Int { 0 }

    /// One past the last element: the number of elements.
    public var endIndex: Int { count }

    /// The number of elements. O(1).
    public var count: Int {
        chunks.last?.end ?? flat.count
    }

    /// Whether the array has no elements. O(1).
    public var isEmpty: Bool { count == 0 }

    /// The element at `position`, which must be in `0..<count` (it traps
    /// otherwise, as `Array` does). Setting it replaces the element in place,
    /// copying only the chunk that holds it when that chunk is shared.
    public subscript(position: Int) -> JSONValue {
        get {
            guard isChunked else { return flat[position] }
            precondition(position >= 0 && position < count, "JSONArray index \(position) out of range 0..<\(count)")
            let (chunk, offset) = location(of: position)
            return chunks[chunk].elements[offset]
        }
        _modify {
            if isChunked {
                precondition(position >= 0 && position < count, "JSONArray index \(position) out of range 0..<\(count)")
                let (chunk, offset) = location(of: position)
                yield &chunks[chunk].elements[offset]
            } else {
                yield &flat[position]
            }
        }
    }

    /// The elements in order, a chunk at a time (no search per element).
    public func makeIterator() -> Iterator {
        Iterator(array: self)
    }

    /// Walks a ``JSONArray``'s elements in order.
    public struct Iterator: IteratorProtocol {
        private let chunks: [JSONArrayChunk]
        private var elements: [JSONValue]
        private var offset = 0
        private var nextChunk = 0

        init(array: JSONArray) {
            chunks = array.chunks
            elements = array.flat
        }

        /// The next element, or `nil` after the last.
        public mutating func next() -> JSONValue? {
            while offset == elements.count {
                guard nextChunk < chunks.count else { return nil }
                elements = chunks[nextChunk].elements
                nextChunk += 1
                offset = 0
            }
            defer { offset += 1 }
            return elements[offset]
        }
    }
}
