import NIOHTTP1
import StateSyncCore
import StateSyncProtocol
import Testing
@testable import StateSyncServer

/// Who may read which store in the devtools: the role rule of today, and a
/// store check given in its place.
@Suite struct DevtoolsAccessTests {
    static func head(token: String?) -> HTTPRequestHead {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/devtools/api/state")
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        return head
    }

    @Test func byRoleAnAdminReadsEveryStoreAndAnotherRoleNone() throws {
        let access = DevtoolsAccess.byRole(
            authentication: .tokens(["a": .admin, "w": .writer]), readPermissions: ReadPermissions())
        let team = try StoreName("team-a")
        #expect(try access.reader(of: team, Self.head(token: "a")) == .admin)
        #expect(throws: DevtoolsError.self) { try access.reader(of: team, Self.head(token: "w")) }
        do {
            _ = try access.reader(of: .main, Self.head(token: nil))
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

    @Test func aStoreCheckGivenInItsPlaceDecidesStoreByStore() throws {
        let access = DevtoolsAccess(authentication: .tokens(["w": .writer])) { role, store in
            store.rawValue.hasPrefix("team-") ? nil : "role \(role.rawValue) reads team stores only"
        }
        #expect(try access.reader(of: try StoreName("team-a"), Self.head(token: "w")) == .writer)
        do {
            _ = try access.reader(of: .main, Self.head(token: "w"))
            Issue.record("main was let in")
        } catch {
            #expect(error.status == 403)
            #expect(error.description == "role writer reads team stores only")
        }
    }
}
