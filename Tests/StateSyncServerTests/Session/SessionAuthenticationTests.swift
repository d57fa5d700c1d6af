import StateSyncProtocol
@testable import StateSyncServer
import Testing

@Suite
struct SessionAuthenticationTests {
    @Test(arguments: [nil, "anything"] as [String?])
    func openServerMakesEveryoneAWriter(token: String?) {
        #expect(SessionAuthentication.open.role(for: token) == .success(.writer))
        #expect(!SessionAuthentication.open.isRequired)
    }

    @Test func tokensMapToRolesAndOthersAreUnauthorized() {
        let auth = SessionAuthentication.tokens(["a": .admin, "r": .reader])
        #expect(auth.role(for: "a") == .success(.admin))
        #expect(auth.role(for: "r") == .success(.reader))
        #expect(auth.role(for: "x") == .failure(.unauthorized(tokenGiven: true)))
        #expect(auth.role(for: nil) == .failure(.unauthorized(tokenGiven: false)))
    }

    @Test(arguments: [
        ("s3cret", "s3cret", true),
        ("s3cre", "s3cret", false),
        ("s3cret!", "s3cret", false),
        ("x3cret", "s3cret", false),
        ("", "s3cret", false),
        ("s3cret" + String(repeating: "\u{0}", count: 256), "s3cret", false),
    ])
    func tokensCompareByEveryByte(given: String, known: String, equal: Bool) {
        #expect(SessionAuthentication.constantTimeEqual(Array(given.utf8), Array(known.utf8)) == equal)
        let auth = SessionAuthentication.tokens([known: .admin])
        #expect((auth.role(for: given) == .success(.admin)) == equal)
    }
}
