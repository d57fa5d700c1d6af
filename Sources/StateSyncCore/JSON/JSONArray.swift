/// A JSON array: a copy-on-write list of ``JSONValue``s with `Int` indices.
///
/// Beyond ``chunkingThreshold`` elements it is a list of copy-on-write chunks
/// of 32 to 128 elements, so two versions share every chunk neither changed:
/// changing one element copies the chunk list and one chunk, and `==` and the
/// diff skip shared chunks. Indexing is a binary search.
///
/// ```swift
/// var todos: JSONArray = [["id": "t1"], ["id": "t2"]]
/// todos.append(["id": "t3"])
/// todos[0]["id"]       // .string("t1")
/// ```
public struct JSONArray: Sendable {
    /// All the elements while ``chunks`` is empty; empty otherwise.
    var flat: [JSONValue]
    /// The elements of a large array in order; empty for a small one.
    var chunks: [JSONArrayChunk]

    /// Above this many elements an array is kept in chunks (256: below it,
    /// copying the whole array costs about as much as copying the chunk
    /// list and one chunk).
    public static var chunkingThreshold: Int { 256 }
    /// A chunked array that shrinks below this many elements becomes flat
    /// again (half the threshold, so an array at the threshold does not
    /// switch form on every change).
    static var flatteningThreshold: Int { chunkingThreshold / 2 }
    /// The size of the chunks a large array is cut into.
    static var chunkSize: Int { 64 }
    /// A chunk that grows above this is split in two halves.
    static var maximumChunkSize: Int { 2 * chunkSize }
    /// A chunk that shrinks below this is merged with a neighbour.
    static var minimumChunkSize: Int { chunkSize / 2 }

    /// An empty array.
    public init() {
        flat = []
        chunks = []
    }

    /// An array of `elements`, in order. O(n).
    public init(_ elements: [JSONValue]) {
        if elements.count > Self.chunkingThreshold {
            flat = []
            chunks = Self.chunked(elements[...], startingAt: 0)
        } else {
            flat = elements
            chunks = []
        }
    }

    /// An array of the elements of `sequence`, in order. O(n).
    public init(_ sequence: some Sequence<JSONValue>) {
        self.init(Array(sequence))
    }

    /// Whether the array is kept in chunks (it is large).
    package var isChunked: Bool { !chunks.isEmpty }

    /// `elements` cut into chunks of ``chunkSize``, the first one's elements
    /// counted from `start`.
    static func chunked(_ elements: ArraySlice<JSONValue>, startingAt start: Int) -> [JSONArrayChunk] {
        var result: [JSONArrayChunk] = []
        result.reserveCapacity((elements.count + chunkSize - 1) / chunkSize)
        var end = start
        var lower = elements.startIndex
        while lower < elements.endIndex {
            let upper = Swift.min(lower + chunkSize, elements.endIndex)
            end += upper - lower
            result.append(JSONArrayChunk(elements: Array(elements[lower..<upper]), end: end))
            lower = upper
        }
        return result
    }

    /// The chunk holding `position` and the element's offset in it, for a
    /// chunked array; `position == count` names the end of the last chunk.
    /// A binary search of the chunk list.
    func location(of position: Int) -> (chunk: Int, offset: Int) {
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let middle = (low + high) / 2
            if chunks[middle].end > position { high = middle } else { low = middle + 1 }
        }
        return (low, position - start(ofChunk: low))
    }

    /// The position of the first element of chunk `index`.
    func start(ofChunk index: Int) -> Int {
        index == 0 ? 0 : chunks[index - 1].end
    }

    /// The contiguous run of elements holding `position` (the flat array or
    /// one chunk) and the element's offset in it.
    package func segment(containing position: Int) -> (elements: [JSONValue], offset: Int) {
        guard isChunked else { return (flat, position) }
        let (chunk, offset) = location(of: position)
        return (chunks[chunk].elements, offset)
    }
}

/// A run of consecutive elements of a chunked ``JSONArray``: a
/// copy-on-write array shared between versions until one changes it.
struct JSONArrayChunk: Sendable {
    /// The elements, in order.
    var elements: [JSONValue]
    /// How many elements the array holds up to and including this chunk
    /// (so the position of the chunk's first element is the previous
    /// chunk's `end`).
    var end: Int
}

extension JSONArray: ExpressibleByArrayLiteral {
    /// An array literal: `[1, "two", nil]`.
    public init(arrayLiteral elements: JSONValue...) {
        self.init(elements)
    }
}

extension JSONArray: CustomStringConvertible {
    /// The elements as Swift prints an `Array` of them.
    public var description: String {
        Array(self).description
    }
}
