/// The path of an ``HTTPRoute`` as segments: `/api/stores/{store}/state` serves `/api/stores/team-42/state` with
/// `store` = `team-42`. A parameter matches one non-empty segment as sent (not percent-decoded).
struct RoutePattern: Sendable {
    private enum Segment: Sendable {
        case literal(Substring)
        case parameter(String)
    }

    private let segments: [Segment]

    /// The pattern of `path`.
    init(_ path: String) {
        segments = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            if segment.count > 2, segment.first == "{", segment.last == "}" {
                return .parameter(String(segment.dropFirst().dropLast()))
            }
            return .literal(segment)
        }
    }

    /// Whether the path has no parameter (it matches only itself).
    var isExact: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// The parameters' values when `path` matches, else `nil`.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                parameters[name] = String(part)
            }
        }
        return parameters
    }
}
