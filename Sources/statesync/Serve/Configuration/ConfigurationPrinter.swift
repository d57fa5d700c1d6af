import Configuration
import StateSyncCore

/// The text of `statesync serve --print-config`: every setting's effective
/// value, section by section, in YAML or JSON, which `--config` reads back.
/// Secrets are masked (tokens keep their roles, a PostgreSQL URL its user
/// and host); settings not set are left out. In YAML, a comment says which
/// value came from a flag, a variable or the file.
///
/// ```yaml
/// network:
///   host: "127.0.0.1"
///   port: 9000  # --port
/// ```
enum ConfigurationPrinter {
    /// `configuration` as a document of `format`.
    static func text(of configuration: ServeConfiguration, as format: ConfigurationFormat) -> String {
        var sections: [(name: String?, entries: [(key: String, value: String, note: String?)])] = []
        for entry in configuration.entries {
            guard let value = entry.printed.map(Self.scalar) else { continue }
            let parts = entry.name.fileKey.split(separator: ".", maxSplits: 1).map(String.init)
            let section = parts.count == 2 ? parts[0] : nil
            let origin = configuration.origins[entry.name]
            let line = (key: parts.last ?? entry.name.fileKey, value: value, note: origin.precedence > 0 ? origin.note : nil)
            if let last = sections.last, last.name == section, section != nil {
                sections[sections.count - 1].entries.append(line)
            } else {
                sections.append((section, [line]))
            }
        }
        switch format {
        case .yaml:
            var lines = ["# statesync serve: the effective configuration (defaults < file < STATESYNC_* < flags); secrets masked."]
            for section in sections {
                let indent = section.name == nil ? "" : "  "
                if let name = section.name { lines.append("\(name):") }
                for entry in section.entries {
                    lines.append("\(indent)\(entry.key): \(entry.value)" + (entry.note.map { "  # \($0)" } ?? ""))
                }
            }
            return lines.joined(separator: "\n") + "\n"
        case .json:
            let members = sections.map { section in
                let quoted = section.entries.map { (Self.quoted($0.key), $0.value) }
                guard let name = section.name else { return quoted.map { "  \($0): \($1)" }.joined(separator: ",\n") }
                return "  \(Self.quoted(name)): {\n" + quoted.map { "    \($0): \($1)" }.joined(separator: ",\n") + "\n  }"
            }
            return "{\n" + members.joined(separator: ",\n") + "\n}\n"
        }
    }

    /// A value as both formats write it: strings quoted and escaped as in JSON, lists in brackets.
    private static func scalar(_ content: ConfigContent) -> String {
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
