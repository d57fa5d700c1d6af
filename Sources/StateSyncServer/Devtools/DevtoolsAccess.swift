import NIOHTTP1
import StateSyncProtocol
import WebSocket

/// Who may use the devtools, and which stores each caller may read there:
/// every devtools route resolves the caller's role from its bearer token
/// with ``role(of:)``, then asks ``mayRead`` for the store it shows (and the
/// store listing keeps only the stores it allows). Per-store permissions
/// replace ``mayRead``; the routes need no change.
struct DevtoolsAccess: Sendable {
    /// Why `role` may not read `store` in the devtools, or `nil` when it may.
    typealias StoreCheck = @Sendable (_ role: Role, _ store: StoreName) -> String?

    let authentication: SessionAuthentication
    /// The one check of whether a role may read a store.
    let mayRead: StoreCheck

    /// The rule for every store alike: with authentication on, the admin
    /// role; either way a role that `--restrict-read` keeps nothing from
    /// (the devtools show the whole state and history).
    static func byRole(authentication: SessionAuthentication, readPermissions: ReadPermissions) -> DevtoolsAccess {
        DevtoolsAccess(authentication: authentication) { role, _ in
            if authentication.isRequired, !role.mayAdminister {
                return "devtools are for the admin role; this token's role is \(role.rawValue)"
            }
            guard readPermissions.allowsEverything(role) else {
                return "devtools show the whole state, and --restrict-read keeps parts of it from role \(role.rawValue)"
            }
            return nil
        }
    }

    /// The caller's role: its token's with authentication on (`401` without
    /// a known one), else the role of a `hello` without a token.
    func role(of head: HTTPRequestHead) throws(DevtoolsError) -> Role {
        let token = head.headers.bearerToken
        switch authentication.role(for: token) {
        case .success(let role):
            return role
        case .failure:
            throw .unauthorized(token == nil
                ? "devtools need an admin token: send Authorization: Bearer TOKEN"
                : "the token is not one of the server's tokens")
        }
    }

    /// The caller's role when it may read `store`.
    ///
    /// - Throws: ``DevtoolsError``: `401` (no known token) or `403` (``mayRead`` refused).
    func reader(of store: StoreName, _ head: HTTPRequestHead) throws(DevtoolsError) -> Role {
        let role = try role(of: head)
        if let refusal = mayRead(role, store) { throw .forbidden(refusal) }
        return role
    }
}
