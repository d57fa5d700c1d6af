/// Brings an array member of a state up to date with the patch operations
/// under it, decoding only the elements they touch. Operation paths are
/// absolute: token 0 is the member, token 1 an element.
enum ElementChanges {
    /// Applies `changes` to `array` (new JSON `json`); `false` when unchanged.
    /// Decodes `json` whole when the operations are not element-local (the
    /// member replaced, a `move`, inserts mixed with changes inside elements).
    static func apply<Element: Decodable & Equatable>(
        _ changes: ArraySlice<JSONPatchOperation>, json: JSONValue, to array: inout [Element]
    ) throws -> Bool {
        if case .array(let elements) = json {
            if let changed = try changeInside(changes, elements: elements, array: &array) { return changed }
            if let changed = try replay(changes, array: &array), array.count == elements.count { return changed }
        }
        let whole = try JSONValueDecoder().decode([Element].self, from: json)
        guard whole != array else { return false }
        array = whole
        return true
    }

    /// Every operation is inside an element (`/todos/3/done`): the elements
    /// keep their places, and each touched one is decoded from `elements`.
    /// `nil` when that is not so.
    private static func changeInside<Element: Decodable & Equatable>(
        _ changes: ArraySlice<JSONPatchOperation>, elements: JSONArray, array: inout [Element]
    ) throws -> Bool? {
        guard elements.count == array.count else { return nil }
        var touched: Set<Int> = []
        for change in changes {
            guard !change.isMoveOrCopy, change.path.tokens.count > 2,
                case .position(let index)? = JSONPointer.arrayIndex(change.path.tokens[1]), index < array.count
            else { return nil }
            touched.insert(index)
        }
        var changed = false
        for index in touched {
            let element = try JSONValueDecoder().decode(Element.self, from: elements[index])
            guard element != array[index] else { continue }
            array[index] = element
            changed = true
        }
        return changed
    }

    /// Every operation adds, removes or replaces a whole element
    /// (`/todos/-`, `/todos/3`): replays them, decoding only the values they
    /// bring. `nil` when that is not so (the array is then decoded whole).
    private static func replay<Element: Decodable & Equatable>(
        _ changes: ArraySlice<JSONPatchOperation>, array: inout [Element]
    ) throws -> Bool? {
        var changed = false
        for change in changes {
            guard change.path.tokens.count == 2, let index = JSONPointer.arrayIndex(change.path.tokens[1]) else { return nil }
            switch (change, index) {
            case (.add(_, let value), .end):
                array.append(try JSONValueDecoder().decode(Element.self, from: value))
            case (.add(_, let value), .position(let position)) where position <= array.count:
                array.insert(try JSONValueDecoder().decode(Element.self, from: value), at: position)
            case (.remove, .position(let position)) where position < array.count:
                array.remove(at: position)
            case (.replace(_, let value), .position(let position)) where position < array.count:
                let element = try JSONValueDecoder().decode(Element.self, from: value)
                guard element != array[position] else { continue }
                array[position] = element
            case (.test, _):
                continue
            default:
                return nil
            }
            changed = true
        }
        return changed
    }
}

extension JSONPatchOperation {
    /// Whether this is a `move` or a `copy` (which read another path too).
    var isMoveOrCopy: Bool {
        switch self {
        case .move, .copy: true
        default: false
        }
    }
}
