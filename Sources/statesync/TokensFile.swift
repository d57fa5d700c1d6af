import Foundation
import StateSyncCore
import StateSyncProtocol

/// Reads the token → role table of `--token` and `--tokens-file`, the
/// read restrictions of `--restrict-read` and the action restrictions of
/// `--restrict-action`.
///
/// `--token` takes `TOKEN` (a writer) or `TOKEN=ROLE`. A tokens file holds
/// one `TOKEN ROLE` pair per line (separated by spaces or tabs; ROLE is
/// `reader`, `writer` or `admin`); blank lines and lines starting with `#`
/// are ignored:
///
/// ```
/// # statesync tokens
/// s3cret-admin   admin
/// team-token     writer
/// dashboard      reader
/// ```
enum TokensFile {
    /// The role of a `--token` argument.
    static func parseArgument(_ argument: String) throws(CommandFailure) -> (String, Role) {
        guard let separator = argument.lastIndex(of: "=") else { return (argument, .writer) }
        let token = String(argument[..<separator])
        let roleName = String(argument[argument.index(after: separator)...])
        return (token, try role(roleName, context: "--token \(token)=…"))
    }

    /// The path and least role of a `--restrict-read PATH=ROLE` argument.
    static func parseReadRestriction(_ argument: String) throws(CommandFailure) -> (JSONPointer, Role) {
        guard let separator = argument.lastIndex(of: "=") else {
            throw CommandFailure(message: "--restrict-read \(argument): expected PATH=ROLE, e.g. /presence=admin")
        }
        let pathText = String(argument[..<separator])
        let path: JSONPointer
        do {
            path = try JSONPointer(parsing: pathText)
        } catch {
            throw CommandFailure(message: "--restrict-read \(argument): \(error)")
        }
        return (path, try role(String(argument[argument.index(after: separator)...]), context: "--restrict-read \(pathText)=…"))
    }

    /// The action type and least role of a `--restrict-action TYPE=ROLE` argument.
    static func parseActionRestriction(_ argument: String) throws(CommandFailure) -> (String, Role) {
        guard let separator = argument.lastIndex(of: "="), separator != argument.startIndex else {
            throw CommandFailure(message: "--restrict-action \(argument): expected TYPE=ROLE, e.g. resetCounter=admin")
        }
        let type = String(argument[..<separator])
        return (type, try role(String(argument[argument.index(after: separator)...]), context: "--restrict-action \(type)=…"))
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

    /// The `TOKEN` or `TOKEN=ROLE` arguments of `STATESYNC_TOKENS`
    /// (separated by commas or white space): tokens given there stay out of
    /// the process's argument list, which every user of the machine can read.
    static func environmentTokens(_ environment: [String: String]) -> [String] {
        (environment["STATESYNC_TOKENS"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" || $0 == "\t" })
            .map(String.init)
    }

    /// A warning when the tokens file at `path` may be read by users other
    /// than its owner; `nil` when it may not (or cannot be checked).
    static func permissionWarning(path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),   // it was just read: it exists
              let permissions = (attributes[.posixPermissions] as? NSNumber)?.uint16Value,
              permissions & 0o044 != 0
        else { return nil }
        return "statesync: warning: the tokens file \(path) can be read by other users (mode \(String(permissions, radix: 8))); run chmod 600 \(path)"
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
