/// Brings a typed state up to date with a batch of JSON Patch operations,
/// decoding only the members (``StateSlice``) they touch, and says which
/// changed; an operation outside every slice decodes all.
package struct SliceDecoder<State: Decodable>: Sendable {
    /// The members followed one by one.
    package let slices: [StateSlice<State>]
    private let indexByKey: [String: Int]

    /// A decoder following `slices`.
    package init(slices: [StateSlice<State>]) {
        self.slices = slices
        var indexByKey: [String: Int] = [:]
        for (index, slice) in slices.enumerated() {
            if let key = slice.pointer.tokens.first { indexByKey[key] = index }
        }
        self.indexByKey = indexByKey
    }

    /// The slice of each top-level key path, for readers.
    package func index(of keyPath: AnyKeyPath) -> Int? {
        slices.firstIndex { $0.keyPath == keyPath }
    }

    /// Applies `changes` (absolute paths) to `state`, given the whole new
    /// `document`. Returns the indices of the slices that changed, or `nil`
    /// when the whole state was decoded (any may have changed).
    package func apply(_ changes: [JSONPatchOperation], document: JSONValue, to state: inout State) throws -> Set<Int>? {
        var groups: [Int: [JSONPatchOperation]] = [:]
        for change in changes {
            var paths = [change.path]
            if case .move(let from, _) = change { paths.append(from) }
            if case .copy(let from, _) = change { paths.append(from) }
            for path in paths {
                guard let key = path.tokens.first, let index = indexByKey[key] else {
                    state = try JSONValueDecoder().decode(State.self, from: document)
                    return nil
                }
                groups[index, default: []].append(change)
            }
        }
        var changed: Set<Int> = []
        for (index, group) in groups {
            let slice = slices[index]
            let json = document[slice.pointer] ?? nil
            if try slice.update(group[...], json, &state) { changed.insert(index) }
        }
        return changed
    }
}
