/// A growable stack of parsed values shared by all containers of one parse: a
/// closing container moves (not copies) its members into one exactly sized
/// array, with no growing array per container.
struct JSONParseStack<Element>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The element at `index` from the bottom (which must be below `count`).
    func element(at index: Int) -> Element {
        base[index]
    }

    /// Moves the elements from `start` to the top into a new array, leaving
    /// `start` elements on the stack.
    mutating func popArray(from start: Int) -> [Element] {
        let moved = count - start
        let result = [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: base + start, count: moved)
            initialized = moved
        }
        count = start
        return result
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
