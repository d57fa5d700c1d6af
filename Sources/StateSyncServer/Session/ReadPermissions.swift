public import StateSyncCore
public import StateSyncProtocol

/// Which parts of the state each role may read (`subscribe` and `get`).
///
/// Every path is readable by every role unless a restriction says otherwise.
/// A restriction names a path and the least role that may read it. Reading a
/// path is forbidden when it lies inside a restricted path, and also when it
/// *contains* one: a reader subscribed to `""` (the whole state) would
/// otherwise see `/presence` through its parent. The refused request gets
/// `error` `forbidden` with its id, and the connection stays open.
///
/// ```swift
/// var session = SessionConfiguration()
/// session.readPermissions = ReadPermissions([try JSONPointer(parsing: "/presence"): .admin])
/// ```
///
/// Permissions apply to reads only; who may dispatch is the role's
/// ``Role/mayDispatch`` and, per action type, ``ActionPermissions``.
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
