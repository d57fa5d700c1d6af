public import NIOHTTP1

extension HTTPHeaders {
    /// Whether header `name` (any number of lines) contains `token` as one of
    /// its comma-separated elements, compared case-insensitively
    /// (RFC 9110 §5.6.1), e.g. `Connection: keep-alive, Upgrade` contains `upgrade`.
    func containsToken(_ token: String, inHeader name: String) -> Bool {
        let wanted = token.lowercased()
        return self[name].contains { line in
            line.split(separator: ",").contains { element in
                element.trimmingHTTPWhitespace().lowercased() == wanted
            }
        }
    }

    /// The comma-separated elements of header `name` across all its lines,
    /// trimmed, with empty elements dropped, in order.
    func tokens(inHeader name: String) -> [String] {
        self[name].flatMap { line in
            line.split(separator: ",").map { String($0.trimmingHTTPWhitespace()) }.filter { !$0.isEmpty }
        }
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP's OWS).
    func trimmingHTTPWhitespace() -> SubSequence {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }),
              let last = lastIndex(where: { !isWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
