import Foundation
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Each way a JWT is accepted or refused, with the reason the client reads.
@Suite
struct JWTAuthenticatorTests {
    private let authenticator = JWTAuthenticator(key: try! JWTKey.parse(TestJWT.secret, source: "test"))

    @Test func aTokenGrantsTheRolesOfItsStoresClaim() async throws {
        let token = try await TestJWT.hs256(TestClaims(stores: ["team-42-*": "writer", "lobby": "reader"]))
        let access = try await authenticator.access(for: token).get()
        #expect(access.role(in: try StoreName("team-42-board")) == .writer)
        #expect(access.role(in: try StoreName("lobby")) == .reader)
        #expect(access.role(in: .main) == nil)
        #expect(access.subject == "alice")
        #expect(access.expires.map { $0 > Date() } == true)
    }

    @Test func theRoleClaimCoversTheStoresNoPatternNames() async throws {
        let token = try await TestJWT.hs256(TestClaims(stores: ["secret": "admin"], role: "reader"))
        let access = try await authenticator.access(for: token).get()
        #expect(access.role(in: .main) == .reader)
        #expect(access.role(in: try StoreName("secret")) == .admin)
    }

    @Test func anES256TokenVerifiesWithThePublicKey() async throws {
        let pair = TestJWT.ES256Pair()
        let es256 = JWTAuthenticator(key: try JWTKey.parse(pair.publicPEM, source: "test.pem"))
        let token = try await pair.sign(TestClaims(role: "writer"))
        #expect(try await es256.access(for: token).get().role(in: .main) == .writer)
        // The same claims signed by another pair do not.
        let forged = try await TestJWT.ES256Pair().sign(TestClaims(role: "admin"))
        #expect(await es256.access(for: forged) == .failure(.tokenRefused("its signature does not verify with the server's key")))
    }

    @Test(arguments: [
        (TestClaims(role: "writer", lifetime: -1), "it expired at"),
        (TestClaims(role: "writer", notBefore: Date().addingTimeInterval(3_600)), "it is not valid before"),
        (TestClaims(stores: ["Team-*": "writer"]), "its stores claim: invalid store pattern \"Team-*\""),
        (TestClaims(stores: ["lobby": "owner"]), "its stores claim gives lobby the role \"owner\", not reader, writer or admin"),
        (TestClaims(role: "root"), "its role claim \"root\" is not reader, writer or admin"),
        (TestClaims(), "it grants no store (no stores or role claim)"),
        (TestClaims(stores: Dictionary(uniqueKeysWithValues: (0..<100).map { ("s\($0)", "reader") })), "its stores claim has 100 patterns"),
    ])
    func aTokenIsRefusedSayingWhy(claims: TestClaims, reason: String) async throws {
        let token = try await TestJWT.hs256(claims)
        let outcome = await authenticator.access(for: token)
        guard case .failure(let error) = outcome else {
            Issue.record("accepted: \(outcome)")
            return
        }
        #expect(error.code == .unauthorized)
        #expect(error.message.hasPrefix("the token was refused: \(reason)"), "\(error.message)")
        #expect(!error.message.contains(token), "the token is never echoed")
    }

    @Test func aTokenSignedWithAnotherSecretIsRefused() async throws {
        let token = try await TestJWT.hs256(TestClaims(role: "admin"), secret: String(repeating: "x", count: 40))
        #expect(await authenticator.access(for: token) == .failure(.tokenRefused("its signature does not verify with the server's key")))
    }

    @Test(arguments: ["not-a-jwt", "a.b.c", "", String(repeating: "a", count: 9_000)])
    func aMalformedTokenIsRefused(token: String) async {
        let outcome = await authenticator.access(for: token)
        guard case .failure(let error) = outcome else {
            Issue.record("accepted: \(outcome)")
            return
        }
        #expect(error.code == .unauthorized)
    }

    @Test func theClockDecidesExpiry() async throws {
        let token = try await TestJWT.hs256(TestClaims(role: "writer", lifetime: 60))
        let later = JWTAuthenticator(key: try JWTKey.parse(TestJWT.secret, source: "test"), now: { Date().addingTimeInterval(120) })
        #expect(try await authenticator.access(for: token).get().role(in: .main) == .writer)
        guard case .failure(let error) = await later.access(for: token) else {
            Issue.record("a token 60 s past its exp was accepted")
            return
        }
        #expect(error.message.contains("expired"))
    }
}
