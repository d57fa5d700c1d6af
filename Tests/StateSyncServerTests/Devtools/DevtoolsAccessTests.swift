import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import Testing
@testable import StateSyncServer

/// Who may read which store in the devtools: the admin role there, a token
/// that grants a role per store, and read restrictions.
@Suite struct DevtoolsAccessTests {
    static func head(token: String?) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/devtools/api/state")
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return head
    }

    @Test func anAdminReadsEveryStoreAndAnotherRoleNone() async throws {
        let access = DevtoolsAccess.byRole(
            authentication: .tokens(["a": .admin, "w": .writer]), readPermissions: ReadPermissions())
        let team = try StoreName("team-a")
        #expect(try await access.reader(of: team, Self.head(token: "a")) == .admin)
        await #expect(throws: DevtoolsError.self) { try await access.reader(of: team, Self.head(token: "w")) }
        do {
            _ = try await access.reader(of: .main, Self.head(token: nil))
            Issue.record("no token was let in")
        } catch {
            #expect(error.status == 401)
        }
    }

    @Test func withoutTokensReadRestrictionsStillKeepTheDevtoolsClosed() throws {
        let access = DevtoolsAccess.byRole(
            authentication: .open, readPermissions: ReadPermissions([try JSONPointer(parsing: "/presence"): .admin]))
        #expect(access.mayRead(.writer, .main)?.contains("--restrict-read") == true)
    }

    @Test func aJWTOpensTheStoresItIsAdminInAndNoOthers() async throws {
        let access = DevtoolsAccess.byRole(
            authentication: SessionAuthentication(tokens: [:], jwt: JWTAuthenticator(key: try JWTKey.parse(TestJWT.secret, source: "test"))),
            readPermissions: ReadPermissions())
        let token = try await TestJWT.hs256(TestClaims(stores: ["team-42-*": "admin", "lobby": "reader"]))
        #expect(try await access.reader(of: try StoreName("team-42-board"), Self.head(token: token)) == .admin)
        for (store, reason) in [("lobby", "devtools are for the admin role; this token's role in lobby is reader"),
                                ("main", "this token grants no access to the store \"main\"")] {
            let name = try StoreName(store)
            do {
                _ = try await access.reader(of: name, Self.head(token: token))
                Issue.record("\(store) was let in")
            } catch {
                #expect(error.status == 403)
                #expect(error.description == reason)
            }
        }
    }
}
