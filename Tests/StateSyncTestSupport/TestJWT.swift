public import Foundation
public import JWTKit

/// The claims a test token carries (what ``StoreTokenClaims`` reads).
public struct TestClaims: JWTPayload {
    public var sub: SubjectClaim?
    public var exp: ExpirationClaim?
    public var nbf: NotBeforeClaim?
    public var stores: [String: String]?
    public var role: String?

    /// Claims for `subject` with these grants, valid for `lifetime` from now (`nil`: no `exp`).
    public init(
        subject: String = "alice", stores: [String: String]? = nil, role: String? = nil,
        lifetime: TimeInterval? = 3_600, notBefore: Date? = nil
    ) {
        sub = SubjectClaim(value: subject)
        exp = lifetime.map { ExpirationClaim(value: Date().addingTimeInterval($0)) }
        nbf = notBefore.map { NotBeforeClaim(value: $0) }
        self.stores = stores
        self.role = role
    }

    /// Tests sign claims the server must judge; nothing is checked here.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Mints JWTs as an application's backend would, for the tests of per-store access.
public enum TestJWT {
    /// An HS256 secret of the length the server requires.
    public static let secret = "statesync-test-secret-0123456789abcdef"

    /// `claims` signed with HS256 and `secret`.
    public static func hs256(_ claims: TestClaims, secret: String = secret) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(claims)
    }

    /// An ES256 key pair: the server gets ``publicPEM``; ``sign(_:)`` mints with the private half.
    public struct ES256Pair: Sendable {
        private let privateKey = ES256PrivateKey()

        /// A fresh random pair.
        public init() {}

        /// The public key in PEM, what `--jwt-key-file` holds.
        public var publicPEM: String { privateKey.publicKey.pemRepresentation }

        /// `claims` signed with the private key.
        public func sign(_ claims: TestClaims) async throws -> String {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: privateKey)
            return try await keys.sign(claims)
        }
    }
}
