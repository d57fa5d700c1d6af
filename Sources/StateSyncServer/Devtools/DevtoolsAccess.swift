import NIOHTTP1
import StateSyncProtocol
import WebSocket

/// Who may use the devtools, and which stores each caller may read: routes
/// resolve access with ``access(of:)``, then ask ``mayRead`` for the store.
struct DevtoolsAccess: Sendable {
    /// Why a caller whose role in `store` is `role` may not read it in the
    /// devtools, or `nil` when it may.
    typealias StoreCheck = @Sendable (_ role: Role, _ store: StoreName) -> String?

    let authentication: SessionAuthentication
    /// The one check of whether a role may read a store.
    let mayRead: StoreCheck

    /// The rule for every store: with authentication on, the admin role; either
    /// way a role `--restrict-read` keeps nothing from, as devtools show everything.
    static func byRole(authentication: SessionAuthentication, readPermissions: ReadPermissions) -> DevtoolsAccess {
        DevtoolsAccess(authentication: authentication) { role, store in
            if authentication.isRequired, !role.mayAdminister {
                return "devtools are for the admin role; this token's role in \(store) is \(role.rawValue)"
            }
            guard readPermissions.allowsEverything(role) else {
                return "devtools show the whole state, and --restrict-read keeps parts of it from role \(role.rawValue)"
            }
            return nil
        }
    }

    /// What the caller's token grants: with authentication on, its token's
    /// (`401` without a valid one), else what a `hello` without a token gets.
    func access(of head: HTTPRequestHead) async throws(DevtoolsError) -> StoreAccess {
        let token = head.headers.bearerToken
        switch await authentication.access(for: token) {
        case .success(let access):
            return access
        case .failure(let refusal):
            throw .unauthorized(token == nil ? "devtools need an admin token: send Authorization: Bearer TOKEN" : refusal.message)
        }
    }

    /// The caller's role in `store` when it may read it.
    ///
    /// - Throws: ``DevtoolsError``: `401` (no valid token) or `403` (no role
    ///   there, or ``mayRead`` refused).
    func reader(of store: StoreName, _ head: HTTPRequestHead) async throws(DevtoolsError) -> Role {
        guard let role = try await access(of: head).role(in: store) else {
            throw .forbidden("this token grants no access to the store \"\(store)\"")
        }
        if let refusal = mayRead(role, store) { throw .forbidden(refusal) }
        return role
    }
}
