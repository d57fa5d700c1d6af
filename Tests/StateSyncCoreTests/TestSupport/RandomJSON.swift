import StateSyncCore

/// A seeded generator of JSON documents and of mutations of them, so that
/// property tests are random but repeatable (SplitMix64).
struct RandomJSON {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// A short key from a small alphabet (so that objects share keys), with
    /// the characters JSON Pointer escapes and some non-ASCII.
    mutating func key() -> String {
        let pieces = ["a", "b", "id", "x/y", "m~n", "é", "", "0", "-", "title"]
        return pieces[below(pieces.count)] + (chance(30) ? String(below(5)) : "")
    }

    mutating func scalar() -> JSONValue {
        switch below(7) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .integer(Int64(below(2000)) - 1000)
        case 3: return .integer(Int64(bitPattern: next()))
        case 4: return .double(Double(below(100_000)) / 64 - 700)
        case 5: return .string(["", "x", "hello \"world\"", "line\nbreak", "é€😀", "\u{1}"][below(6)])
        default: return .string(key())
        }
    }

    /// A random document of at most `depth` nested levels.
    mutating func value(depth: Int) -> JSONValue {
        if depth == 0 || chance(35) { return scalar() }
        switch below(3) {
        case 0:
            return .array((0..<below(6)).map { _ in value(depth: depth - 1) })
        case 1:
            return .array(items(count: below(8), depth: depth - 1))
        default:
            var object = JSONObject()
            for _ in 0..<below(6) { object[key()] = value(depth: depth - 1) }
            return .object(object)
        }
    }

    /// Objects each carrying a unique `"id"`, like todos.
    mutating func items(count: Int, depth: Int) -> [JSONValue] {
        (0..<count).map { _ in item(depth: depth) }
    }

    mutating func item(depth: Int) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string("t\(next() % 1_000_000)")
        object["title"] = scalar()
        if depth > 0 && chance(40) { object["tags"] = value(depth: depth - 1) }
        return .object(object)
    }

    /// `value` with a few random edits, made in place so that untouched
    /// subtrees keep sharing storage with the original.
    mutating func mutate(_ value: JSONValue, edits: Int) -> JSONValue {
        var result = value
        for _ in 0..<edits { mutateOnce(&result, depth: 0) }
        return result
    }

    private mutating func mutateOnce(_ value: inout JSONValue, depth: Int) {
        switch value {
        case .object(var object) where !object.isEmpty && chance(75):
            value = .null
            let key = object[below(object.count)].key
            switch below(4) {
            case 0: object[key] = nil
            case 1: object[self.key()] = self.value(depth: 2)
            default:
                _ = object.withValue(forKey: key) { child in mutateOnce(&child, depth: depth + 1) }
            }
            value = .object(object)
        case .array(var values) where chance(75):
            value = .null
            let isItems = !values.isEmpty && values.allSatisfy { $0["id"] != nil }
            switch below(5) {
            case 0 where !values.isEmpty:
                values.remove(at: below(values.count))
            case 1:
                values.insert(isItems ? item(depth: 1) : scalar(), at: below(values.count + 1))
            case 2 where values.count > 1:
                values.swapAt(below(values.count), below(values.count))
            default:
                if values.isEmpty {
                    values.append(scalar())
                } else {
                    let index = below(values.count)
                    mutateOnce(&values[index], depth: depth + 1)
                }
            }
            value = .array(values)
        default:
            value = chance(50) ? scalar() : self.value(depth: 2)
        }
    }
}
