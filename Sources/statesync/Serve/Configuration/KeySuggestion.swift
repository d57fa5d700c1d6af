/// The known key an unknown one is probably a typo of: the same name in another section,
/// else the nearest within three edits (`network.prot`: `network.port`).
enum KeySuggestion {
    /// The most edits (insertions, deletions, substitutions) a suggestion may be away.
    static let maxDistance = 3

    /// A suggestion for each of `unknown` that has one.
    static func suggestions(for unknown: [String], among known: Set<String>) -> [String: String] {
        let known = known.sorted()   // the first of equally near keys, whatever the set's order
        var suggestions: [String: String] = [:]
        for key in unknown {
            suggestions[key] = suggestion(for: key, among: known)
        }
        return suggestions
    }

    private static func suggestion(for key: String, among known: [String]) -> String? {
        let name = lastPart(of: key).lowercased()
        if let moved = known.first(where: { lastPart(of: $0).lowercased() == name }) { return moved }
        let nearest = known.map { ($0, distance(key.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let nearest, nearest.1 <= maxDistance else { return nil }
        return nearest.0
    }

    private static func lastPart(of key: String) -> Substring {
        key.split(separator: ".").last ?? ""
    }

    /// The Levenshtein distance between `a` and `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
