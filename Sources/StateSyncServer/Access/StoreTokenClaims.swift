import Foundation
import JWTKit

/// The claims StateSync reads from a JWT:
/// `{"sub":"alice","exp":1764201600,"nbf":…,"stores":{"team-42-*":"writer","lobby":"reader"},"role":"reader"}`.
///
/// `stores` maps store patterns to roles; `role`, when present, is the role
/// in every store no pattern of `stores` matches. Other claims are ignored.
/// `exp` and `nbf` are checked by ``JWTAuthenticator`` against its own
/// clock, not here, so that tests can set the time.
struct StoreTokenClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var stores: [String: String]?
    var role: String?

    /// The signature is checked by then; the times are checked by the authenticator.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
