/// Brings a `String`-keyed dictionary member of a state up to date with the
/// patch operations under it, decoding only the entries they touch.
/// Operation paths are absolute: token 0 is the member, token 1 an entry.
enum EntryChanges {
    /// Applies `changes` to `dictionary`, whose new JSON is `json`; `false`
    /// when it did not change. Falls back to decoding `json` whole when an
    /// operation replaces the member itself or moves or copies values.
    static func apply<Value: Decodable & Equatable>(
        _ changes: ArraySlice<JSONPatchOperation>, json: JSONValue, to dictionary: inout [String: Value]
    ) throws -> Bool {
        guard case .object(let object) = json, changes.allSatisfy({ !$0.isMoveOrCopy && $0.path.tokens.count >= 2 }) else {
            let whole = try JSONValueDecoder().decode([String: Value].self, from: json)
            guard whole != dictionary else { return false }
            dictionary = whole
            return true
        }
        var changed = false
        for key in Set(changes.map { $0.path.tokens[1] }) {
            if let entry = object[key] {
                let value = try JSONValueDecoder().decode(Value.self, from: entry)
                guard value != dictionary[key] else { continue }
                dictionary[key] = value
            } else {
                guard dictionary.removeValue(forKey: key) != nil else { continue }
            }
            changed = true
        }
        return changed
    }
}
