import Configuration
import StateSyncCore

/// The text of `statesync serve --print-config`: the effective value of every setting set, in
/// YAML or JSON that `--config` reads back, secrets masked; in YAML a comment names a value's
/// flag, variable or file (docs/configuration.md, `--print-config`).
enum ConfigurationPrinter {
    /// One printed setting: its key within its section, its value as both formats write it, and where it came from.
    private struct Line {
        let key: String
        let value: String
        let note: String?
    }

    /// The lines of one section, or of the top level (`name` `nil`).
    private struct Section {
        let name: String?
        var lines: [Line]
    }

    /// `configuration` as a document of `format`.
    static func text(of configuration: ServeConfiguration, as format: ConfigurationFormat) -> String {
        let sections = sections(of: configuration)
        switch format {
        case .yaml:
            var text = "# statesync serve: the effective configuration (defaults < file < STATESYNC_* < flags); secrets masked.\n"
            for section in sections {
                if let name = section.name { text += "\(name):\n" }
                let indent = section.name == nil ? "" : "  "
                for line in section.lines {
                    text += "\(indent)\(line.key): \(line.value)" + (line.note.map { "  # \($0)" } ?? "") + "\n"
                }
            }
            return text
        case .json:
            let members = sections.map { section in
                let indent = section.name == nil ? "  " : "    "
                let lines = section.lines.map { "\(indent)\(quoted($0.key)): \($0.value)" }.joined(separator: ",\n")
                return section.name.map { "  \(quoted($0)): {\n\(lines)\n  }" } ?? lines
            }
            return "{\n" + members.joined(separator: ",\n") + "\n}\n"
        }
    }

    /// The settings that are set, grouped by section in the file's order.
    private static func sections(of configuration: ServeConfiguration) -> [Section] {
        var sections: [Section] = []
        for entry in configuration.entries {
            guard let printed = entry.printed else { continue }
            let parts = entry.name.fileKey.split(separator: ".", maxSplits: 1).map(String.init)
            let origin = configuration.origins[entry.name]
            let line = Line(key: parts[parts.count - 1], value: value(printed), note: origin.precedence > 0 ? origin.note : nil)
            let name = parts.count == 2 ? parts[0] : nil
            if name != nil, sections.last?.name == name {
                sections[sections.count - 1].lines.append(line)
            } else {
                sections.append(Section(name: name, lines: [line]))
            }
        }
        return sections
    }

    /// A value as both formats write it: strings quoted and escaped as in JSON, lists in brackets.
    private static func value(_ content: ConfigContent) -> String {
        switch content {
        case .string(let string): quoted(string)
        case .int(let int): "\(int)"
        case .double(let double): "\(double)"
        case .bool(let bool): "\(bool)"
        case .stringArray(let strings): "[" + strings.map(quoted).joined(separator: ", ") + "]"
        default: "\(content)"   // no setting holds bytes or other lists
        }
    }

    private static func quoted(_ string: String) -> String {
        JSONSerializer().string(for: .string(string))
    }
}
