import Foundation

/// How `--print-config` hides secrets while keeping what is not secret
/// readable: a token's role, a PostgreSQL URL's user, host and database.
enum SecretMask {
    /// What stands for a secret.
    static let hidden = "********"

    /// `postgres://USER:PASSWORD@HOST/DB` with the password hidden; a URL without one as it is.
    static func postgresURL(_ url: String) -> String {
        guard let start = url.range(of: "://")?.upperBound else { return url }
        let authority = url[start...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<authority.index(after: colon)]) + hidden + String(url[at...])
    }

    /// `TOKEN=ROLE` (or `TOKEN`) entries with each token hidden and its role kept.
    static func tokens(_ entries: [String]) -> [String] {
        entries.map { entry in
            entry.lastIndex(of: "=").map { hidden + entry[$0...] } ?? hidden
        }
    }
}
