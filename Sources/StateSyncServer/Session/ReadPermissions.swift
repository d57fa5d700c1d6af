public import StateSyncCore
public import StateSyncProtocol

/// Which parts of the state each role may read. A read is forbidden inside a
/// restricted path and also when it *contains* one, so `""` cannot reveal
/// `/presence`; the refusal is `error` `forbidden`.
///
/// ```swift
/// var session = SessionConfiguration()
/// session.readPermissions = ReadPermissions([try JSONPointer(parsing: "/presence"): .admin])
/// ```
public struct ReadPermissions: Sendable, Hashable {
    /// Restricted paths and the least role that may read each.
    public var minimumRoles: [JSONPointer: Role]

    /// Permissions with the given restrictions; none (the default) lets every role read everything.
    public init(_ minimumRoles: [JSONPointer: Role] = [:]) {
        self.minimumRoles = minimumRoles
    }

    /// Whether `role` may read every path (no restriction is above it): what
    /// the devtools need, since they show the whole state and history.
    public func allowsEverything(_ role: Role) -> Bool {
        minimumRoles.values.allSatisfy { role >= $0 }
    }

    /// Whether `role` may read `path`: no restriction above its role lies
    /// on, inside or around `path`.
    public func allows(_ role: Role, toRead path: JSONPointer) -> Bool {
        for (restricted, minimum) in minimumRoles where role < minimum {
            if restricted.isPrefix(of: path) || path.isPrefix(of: restricted) {
                return false
            }
        }
        return true
    }
}
