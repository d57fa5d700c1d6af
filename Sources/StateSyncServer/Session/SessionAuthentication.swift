public import StateSyncProtocol

/// How a session's token becomes a ``StoreAccess``. With no tokens and no JWT
/// key (``open``, the default) every session is a `writer` everywhere;
/// otherwise a listed token or a valid JWT is required, else `unauthorized`.
///
/// ```swift
/// let auth = SessionAuthentication.tokens(["s3cret": .admin, "viewer": .reader])
/// await auth.access(for: "viewer")   // .success(.everyStore(.reader))
/// ```
public struct SessionAuthentication: Sendable, Hashable {
    /// Token → role in every store.
    public var tokens: [String: Role]
    /// Verifies JWTs (`serve --jwt-key-file`); `nil`: none are accepted.
    public var jwt: JWTAuthenticator?

    /// Sessions present one of `tokens`, or a JWT `jwt` verifies.
    public init(tokens: [String: Role], jwt: JWTAuthenticator? = nil) {
        self.tokens = tokens
        self.jwt = jwt
    }

    /// Everyone is a writer everywhere; tokens are ignored.
    public static let open = SessionAuthentication(tokens: [:])

    /// Sessions must present one of `tokens` and get its role in every store.
    public static func tokens(_ tokens: [String: Role]) -> SessionAuthentication {
        SessionAuthentication(tokens: tokens)
    }

    /// Whether tokens are required.
    public var isRequired: Bool { !tokens.isEmpty || jwt != nil }

    /// What a token decides at once, or that it must be verified as a JWT.
    enum Decision: Sendable {
        /// The access is known now: no authentication, or a token of the list.
        case granted(StoreAccess)
        /// The `unauthorized` error to send.
        case refused(ProtocolError)
        /// A JWT: `authenticator` decides, asynchronously.
        case verify(String, by: JWTAuthenticator)
    }

    /// What `token` decides without waiting: a listed token, no token, or a JWT
    /// to verify. Tokens are compared in constant time, so timing does not reveal
    /// them byte by byte.
    func decide(_ token: String?) -> Decision {
        guard isRequired else { return .granted(.everyStore(.writer)) }
        guard let token else { return .refused(.unauthorized(tokenGiven: false)) }
        var granted: Role?
        for (known, role) in tokens where Self.constantTimeEqual(Array(token.utf8), Array(known.utf8)) {
            granted = role
        }
        if let granted { return .granted(.everyStore(granted)) }
        guard let jwt else { return .refused(.unauthorized(tokenGiven: true)) }
        return .verify(token, by: jwt)
    }

    /// The access `token` grants, or the `unauthorized` error to send.
    public func access(for token: String?) async -> Result<StoreAccess, ProtocolError> {
        switch decide(token) {
        case .granted(let access): .success(access)
        case .refused(let error): .failure(error)
        case let .verify(token, jwt): await jwt.access(for: token)
        }
    }

    /// Whether `a` equals `b`, looking at every byte of `b` whatever the input.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = a.count ^ b.count
        for index in b.indices {
            difference |= Int(b[index] ^ (index < a.count ? a[index] : 0))
        }
        return difference == 0
    }
}
