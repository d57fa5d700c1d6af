public import StateSyncCore
public import StateSyncProtocol

/// Which roles may dispatch which action types (`statesync serve
/// --restrict-action resetCounter=admin`).
///
/// Every role that may dispatch (``Role/mayDispatch``) may dispatch every
/// action type unless a restriction names that type and a least role above
/// the sender's. A refused dispatch is answered `reject` `forbidden` with its
/// id, over the WebSocket and `POST /api/dispatch` alike (HTTP 403); the
/// action is neither applied nor journaled, the connection stays open, and
/// since the refusal depends on the sender's role and not on the pair, it is
/// not remembered as the pair's outcome (the same pair sent later by a
/// session with a role that may is applied).
///
/// ```swift
/// var session = SessionConfiguration()
/// session.actionPermissions = ActionPermissions(["resetCounter": .admin])
/// ```
public struct ActionPermissions: Sendable, Hashable {
    /// Restricted action types (the action's `type` string) and the least
    /// role that may dispatch each.
    public var minimumRoles: [String: Role]

    /// Permissions with the given restrictions; none (the default) lets every
    /// role that may dispatch send every action.
    public init(_ minimumRoles: [String: Role] = [:]) {
        self.minimumRoles = minimumRoles
    }

    /// Why `role` may not dispatch `action`, as the `reject` message, or
    /// `nil` when it may. An action without a string `type` is not refused
    /// here: the app rejects it as `invalid_action`.
    public func refusal(of action: JSONObject, by role: Role) -> String? {
        guard !minimumRoles.isEmpty, case .string(let type)? = action["type"],
              let minimum = minimumRoles[type], role < minimum
        else { return nil }
        return "action \(type) needs role \(minimum.rawValue) or above; this session's role is \(role.rawValue)"
    }
}
