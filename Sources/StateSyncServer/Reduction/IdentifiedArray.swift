/// An array of `Identifiable`, `Encodable` elements as a ``StateMirror``
/// sees it: positions found by `id`, elements to encode. The mirror finds
/// one element of such an array (the board's todos) to re-encode it alone.
protocol IdentifiedArray {
    /// The number of elements.
    var count: Int { get }

    /// The position of the element whose `id` is `key`: the last element when it
    /// is that one (a fresh append), else the first; `nil` when there is none.
    func position(ofID key: AnyHashable) -> Int?

    /// The element at `position`, to encode.
    func encodable(at position: Int) -> any Encodable
}

extension Array: IdentifiedArray where Element: Identifiable & Encodable {
    func position(ofID key: AnyHashable) -> Int? {
        guard let id = key.base as? Element.ID else { return nil }
        // Read in place: called through the protocol, this code is not
        // specialized, and `firstIndex(where:)` would copy every element.
        return withUnsafeBufferPointer { elements in
            guard let lastIndex = elements.indices.last else { return nil }
            if elements[lastIndex].id == id { return lastIndex }
            return elements.indices.first { elements[$0].id == id }
        }
    }

    func encodable(at position: Int) -> any Encodable {
        self[position]
    }
}
