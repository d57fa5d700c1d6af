public import StateSyncCore
public import StateSyncProtocol

/// Which roles may dispatch which action types (`--restrict-action
/// resetCounter=admin`). A refused dispatch gets `reject` `forbidden` and is
/// not remembered as the pair's outcome, as it depends on the sender's role.
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
