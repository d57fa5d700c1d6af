import StateSyncServer
import StateSyncTestSupport
import Testing

@Suite
struct JWTKeyTests {
    @Test func aShortSecretIsRefusedWithItsLength() {
        #expect {
            try JWTKey.parse("too-short\n", source: "key.txt")
        } throws: { error in
            "\(error)" == "JWT key key.txt: an HS256 secret must have at least 32 bytes; this one has 9"
        }
    }

    @Test func aSecretAndAPublicKeyAreTold() throws {
        #expect(try JWTKey.parse(TestJWT.secret + "\n", source: "s").isSecret)
        #expect(try !JWTKey.parse(TestJWT.ES256Pair().publicPEM, source: "p").isSecret)
    }

    @Test func aPEMWithoutAnECKeyIsRefused() {
        let pem = "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"
        #expect {
            try JWTKey.parse(pem, source: "bad.pem")
        } throws: { error in
            "\(error)".contains("does not hold a P-256 (ES256)")
        }
    }

    @Test func aMissingFileIsNamed() {
        #expect {
            try JWTKey.load(fileAt: "/nonexistent/statesync-jwt-key")
        } throws: { error in
            "\(error)" == "JWT key /nonexistent/statesync-jwt-key: it cannot be read"
        }
    }
}
