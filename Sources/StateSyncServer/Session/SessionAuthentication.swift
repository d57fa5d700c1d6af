public import StateSyncProtocol

/// How a session's `hello` token becomes a ``Role``.
///
/// With no tokens (``open``, the default) every session is a `writer` and
/// tokens are ignored. With tokens, `hello` must carry one of them; a missing
/// or unknown token is `unauthorized` (close 1008).
///
/// ```swift
/// let auth = SessionAuthentication.tokens(["s3cret": .admin, "viewer": .reader])
/// auth.role(for: "viewer")   // .success(.reader)
/// ```
public struct SessionAuthentication: Sendable, Hashable {
    /// Token → role; empty means no authentication.
    public var tokens: [String: Role]

    /// Everyone is a writer; tokens are ignored.
    public static let open = SessionAuthentication(tokens: [:])

    /// Sessions must present one of `tokens` and get its role.
    public static func tokens(_ tokens: [String: Role]) -> SessionAuthentication {
        SessionAuthentication(tokens: tokens)
    }

    /// Whether tokens are required.
    public var isRequired: Bool { !tokens.isEmpty }

    /// The role granted to a session presenting `token`, or the
    /// `unauthorized` error to send.
    public func role(for token: String?) -> Result<Role, ProtocolError> {
        guard isRequired else { return .success(.writer) }
        guard let token else { return .failure(.unauthorized(tokenGiven: false)) }
        guard let role = tokens[token] else { return .failure(.unauthorized(tokenGiven: true)) }
        return .success(role)
    }
}
