/// A text with placeholders, filled in for each client or action: `{i}` the client's
/// index (`0..<clients`), `{n}` a random number in `0..<clients` drawn per action,
/// `{seq}` the writer's action sequence number (from 1). Other text is kept as written.
public struct Template: Sendable, Hashable, CustomStringConvertible {
    enum Part: Sendable, Hashable {
        case literal(String)
        case client
        case random
        case sequence
    }

    let parts: [Part]
    /// The template as written.
    public let description: String

    /// Splits `text` into literal runs and placeholders.
    public init(_ text: String) {
        description = text
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        let placeholders: [(String, Part)] = [("{i}", .client), ("{n}", .random), ("{seq}", .sequence)]
        while let first = rest.first {
            if first == "{", let (token, part) = placeholders.first(where: { rest.hasPrefix($0.0) }) {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(part)
                rest = rest.dropFirst(token.count)
            } else {
                literal.append(first)
                rest = rest.dropFirst()
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.parts = parts
    }

    /// The text with `{i}` = `client`, `{n}` = `random` and `{seq}` = `sequence`.
    public func render(client: Int, random: Int, sequence: Int) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .client: text += String(client)
            case .random: text += String(random)
            case .sequence: text += String(sequence)
            }
        }
        return text
    }
}
