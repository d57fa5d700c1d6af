import StateSyncProtocol
import StateSyncServer
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
}
