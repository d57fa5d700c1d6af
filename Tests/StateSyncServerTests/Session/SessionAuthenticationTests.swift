import StateSyncProtocol
@testable import StateSyncServer
import Testing

@Suite
struct SessionAuthenticationTests {
    @Test(arguments: [nil, "anything"] as [String?])
    func openServerMakesEveryoneAWriter(token: String?) async {
        #expect(await SessionAuthentication.open.access(for: token) == .success(.everyStore(.writer)))
        #expect(!SessionAuthentication.open.isRequired)
    }

    @Test func tokensMapToRolesInEveryStoreAndOthersAreUnauthorized() async throws {
        let auth = SessionAuthentication.tokens(["a": .admin, "r": .reader])
        #expect(await auth.access(for: "a") == .success(.everyStore(.admin)))
        #expect(try await auth.access(for: "r").get().role(in: StoreName("team-42")) == .reader)
        #expect(await auth.access(for: "x") == .failure(.unauthorized(tokenGiven: true)))
        #expect(await auth.access(for: nil) == .failure(.unauthorized(tokenGiven: false)))
    }

    @Test(arguments: [
        ("s3cret", "s3cret", true),
        ("s3cre", "s3cret", false),
        ("s3cret!", "s3cret", false),
        ("x3cret", "s3cret", false),
        ("", "s3cret", false),
        ("s3cret" + String(repeating: "\u{0}", count: 256), "s3cret", false),
    ])
    func tokensCompareByEveryByte(given: String, known: String, equal: Bool) async {
        #expect(SessionAuthentication.constantTimeEqual(Array(given.utf8), Array(known.utf8)) == equal)
        let auth = SessionAuthentication.tokens([known: .admin])
        #expect((await auth.access(for: given) == .success(.everyStore(.admin))) == equal)
    }
}
