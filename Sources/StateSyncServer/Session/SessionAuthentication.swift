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
    ///
    /// The token is compared with every known token in time that does not
    /// depend on where they differ (a hash lookup or `==` stops at the first
    /// different byte, which lets a client guess a token byte by byte from
    /// the answer's timing).
    public func role(for token: String?) -> Result<Role, ProtocolError> {
        guard isRequired else { return .success(.writer) }
        guard let token else { return .failure(.unauthorized(tokenGiven: false)) }
        var granted: Role?
        for (known, role) in tokens where Self.constantTimeEqual(Array(token.utf8), Array(known.utf8)) {
            granted = role
        }
        guard let granted else { return .failure(.unauthorized(tokenGiven: true)) }
        return .success(granted)
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
