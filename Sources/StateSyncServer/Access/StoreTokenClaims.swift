import Foundation
import JWTKit

/// The claims StateSync reads from a JWT: `sub`, `exp`, `nbf`, `stores`
/// (patterns to roles) and `role` (for stores no pattern matches). `exp` and
/// `nbf` are checked by ``JWTAuthenticator`` against its own clock.
struct StoreTokenClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var stores: [String: String]?
    var role: String?

    /// The signature is checked by then; the times are checked by the authenticator.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
