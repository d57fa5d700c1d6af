import Foundation
import StateSyncCore
import StateSyncProtocol

/// Reads the token → role table (`auth.tokens`, `auth.tokensFile`) and the restrictions of
/// `auth.restrictRead` and `auth.restrictAction`; errors start with `name`, the setting as given.
/// A token entry is `TOKEN` (a writer) or `TOKEN=ROLE`; a tokens file has `TOKEN ROLE` lines.
enum TokensFile {
    /// The token and role of a `TOKEN` or `TOKEN=ROLE` entry. Errors do not quote the token.
    static func parseToken(_ entry: String, name: String) throws(CommandFailure) -> (String, Role) {
        guard let separator = entry.lastIndex(of: "=") else { return (entry, .writer) }
        let token = String(entry[..<separator])
        return (token, try role(String(entry[entry.index(after: separator)...]), context: "\(name) …"))
    }

    /// The path and least role of a `PATH=ROLE` read restriction.
    static func parseReadRestriction(_ entry: String, name: String) throws(CommandFailure) -> (JSONPointer, Role) {
        guard let separator = entry.lastIndex(of: "=") else {
            throw CommandFailure(message: "\(name) \(entry): expected PATH=ROLE, e.g. /presence=admin")
        }
        let pathText = String(entry[..<separator])
        let path: JSONPointer
        do {
            path = try JSONPointer(parsing: pathText)
        } catch {
            throw CommandFailure(message: "\(name) \(entry): \(error)")
        }
        return (path, try role(String(entry[entry.index(after: separator)...]), context: "\(name) \(pathText)=…"))
    }

    /// The action type and least role of a `TYPE=ROLE` action restriction.
    static func parseActionRestriction(_ entry: String, name: String) throws(CommandFailure) -> (String, Role) {
        guard let separator = entry.lastIndex(of: "="), separator != entry.startIndex else {
            throw CommandFailure(message: "\(name) \(entry): expected TYPE=ROLE, e.g. resetCounter=admin")
        }
        let type = String(entry[..<separator])
        return (type, try role(String(entry[entry.index(after: separator)...]), context: "\(name) \(type)=…"))
    }

    /// The pairs of a tokens file's text; `path` names it in errors.
    static func parse(_ text: String, path: String) throws(CommandFailure) -> [String: Role] {
        var tokens: [String: Role] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2 else {
                throw CommandFailure(message: "\(path):\(index + 1): expected \"TOKEN ROLE\", found \(fields.count) fields")
            }
            tokens[String(fields[0])] = try role(String(fields[1]), context: "\(path):\(index + 1)")
        }
        return tokens
    }

    /// A warning when the tokens file at `path` may be read by users other
    /// than its owner; `nil` when it may not (or cannot be checked).
    static func permissionWarning(path: String, holding what: String = "the tokens file") -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),   // it was just read: it exists
              let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value,
              permissions & 0o044 != 0
        else { return nil }
        return "statesync: warning: \(what) \(path) can be read by other users (mode \(String(permissions, radix: 8))); run chmod 600 \(path)"
    }

    private static func role(_ name: String, context: String) throws(CommandFailure) -> Role {
        guard let role = Role(rawValue: name) else {
            throw CommandFailure(message: "\(context): \"\(name)\" is not a role (reader, writer or admin)")
        }
        return role
    }
}

extension Substring {
    /// Without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
