import Foundation

/// The entries of a section of swift-argument-parser's help text
/// (`SUBCOMMANDS:`, `ARGUMENTS:`, `OPTIONS:`), and the same entries as
/// docs/cli.md's tables, so that the two can be compared.
struct HelpEntry: Equatable, CustomStringConvertible {
    /// `serve`, `--host <host>`, `<path>`, `--memory`.
    var synopsis: String
    /// The help text with its whitespace joined, without a trailing `(default: …)`.
    var meaning: String
    /// The value of a trailing `(default: …)`, or nil.
    var defaultValue: String?

    var description: String { "\(synopsis) | \(meaning) | \(defaultValue ?? "–")" }
}

enum HelpText {
    /// The entries of `section` in `help`. An entry starts on a line indented
    /// by two spaces with its synopsis (a subcommand name, an option with its
    /// value, or an argument); its text follows after spaces and goes on in the
    /// deeper-indented lines below, until a blank line.
    static func entries(_ section: String, in help: String) -> [HelpEntry] {
        var entries: [(synopsis: String, text: String)] = []
        var inSection = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if !inSection {
                inSection = line == section + ":"
                continue
            }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            if line.hasPrefix("  "), !line.hasPrefix("   "), let (synopsis, text) = Self.split(line.dropFirst(2), subcommands: section == "SUBCOMMANDS") {
                entries.append((synopsis, text))
            } else if !entries.isEmpty {
                entries[entries.count - 1].text += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return entries.map { Self.entry(synopsis: $0.synopsis, text: $0.text) }
    }

    /// An entry from its synopsis and its text, the default taken off the end.
    static func entry(synopsis: String, text: String) -> HelpEntry {
        var meaning = text.split(whereSeparator: { $0 == " " }).joined(separator: " ")
        var defaultValue: String?
        if meaning.hasSuffix(")"), let open = meaning.range(of: " (default: ", options: .backwards) {
            let value = meaning[open.upperBound..<meaning.index(before: meaning.endIndex)]
            if !value.contains("(") && !value.contains(")") {
                defaultValue = String(value)
                meaning = String(meaning[..<open.lowerBound])
            }
        }
        return HelpEntry(synopsis: synopsis, meaning: meaning, defaultValue: defaultValue)
    }

    /// Splits `-h, --help  text`, `--host <host> text`, `<paths>  text` or
    /// `serve  text` into synopsis and text.
    private static func split(_ line: Substring, subcommands: Bool) -> (String, String)? {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let first = words.first else { return nil }
        var count = 1
        if subcommands {
            guard first.first?.isLetter == true else { return nil }
        } else {
            guard first.hasPrefix("-") || first.hasPrefix("<") else { return nil }
            if first.hasSuffix(","), words.count > 1 { count += 1 }            // -h, --help
            if words.count > count, words[count].hasPrefix("<") { count += 1 } // --host <host>
            if words.count > count, words[count] == "..." { count += 1 }       // <paths> ...
        }
        return (words.prefix(count).joined(separator: " "), words.dropFirst(count).joined(separator: " "))
    }
}
