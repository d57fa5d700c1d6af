public import Foundation
import JWTKit
public import StateSyncProtocol

/// Verifies the JWTs sessions present (HS256 or ES256) and turns their claims
/// into a ``StoreAccess``. A refusal says why (signature, `exp`, `nbf`, a bad
/// pattern or role, no store granted), never echoing the token.
///
/// ```swift
/// let jwt = JWTAuthenticator(key: try .load(fileAt: "/etc/statesync/jwt-public.pem"))
/// let access = await jwt.access(for: token)   // .success(StoreAccess) or .failure(unauthorized)
/// ```
public final class JWTAuthenticator: Sendable, Hashable {
    private let keys: JWTKeyCollection
    /// Adds the key to ``keys`` (an actor): every verification awaits it first.
    private let keyAdded: Task<Void, Never>
    private let now: @Sendable () -> Date

    /// The longest token verified (8 KiB): longer is refused before any decoding.
    public static let maxTokenBytes = 8_192

    /// An authenticator for tokens signed with `key`; `now` is the time
    /// `exp` and `nbf` are compared with.
    public init(key: JWTKey, now: @escaping @Sendable () -> Date = Date.init) {
        let keys = JWTKeyCollection()
        keyAdded = Task {
            switch key.base {
            case .hs256(let secret): await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            case .es256(let publicKey): await keys.add(ecdsa: publicKey)
            }
        }
        self.keys = keys
        self.now = now
    }

    /// The access `token` grants, or the `unauthorized` error saying why it is refused.
    public func access(for token: String) async -> Result<StoreAccess, ProtocolError> {
        guard token.utf8.count <= Self.maxTokenBytes else {
            return .failure(.tokenRefused("it is longer than \(Self.maxTokenBytes) bytes"))
        }
        await keyAdded.value
        let claims: StoreTokenClaims
        do {
            claims = try await keys.verify(token, as: StoreTokenClaims.self)
        } catch let error as JWTError {
            return .failure(.tokenRefused(Self.reason(error)))
        } catch {
            return .failure(.tokenRefused("its claims do not decode (stores must map patterns to role names, role must be a string)"))
        }
        return Self.access(claims, at: now())
    }

    /// The access `claims` grant at `date`, or why they grant none.
    static func access(_ claims: StoreTokenClaims, at date: Date) -> Result<StoreAccess, ProtocolError> {
        if let expiry = claims.exp?.value, expiry <= date {
            return .failure(.tokenRefused("it expired at \(expiry.formatted(.iso8601))"))
        }
        if let start = claims.nbf?.value, start > date {
            return .failure(.tokenRefused("it is not valid before \(start.formatted(.iso8601))"))
        }
        let patterns = claims.stores ?? [:]
        guard patterns.count < StoreAccess.maxGrants else {
            return .failure(.tokenRefused("its stores claim has \(patterns.count) patterns; at most \(StoreAccess.maxGrants - 1)"))
        }
        var grants: [StorePattern: Role] = [:]
        for (text, roleName) in patterns {
            let pattern: StorePattern
            do {
                pattern = try StorePattern(text)
            } catch {
                return .failure(.tokenRefused("its stores claim: \(error)"))
            }
            guard let role = Role(rawValue: roleName) else {
                return .failure(.tokenRefused("its stores claim gives \(pattern) the role \"\(roleName.prefix(40))\", not reader, writer or admin"))
            }
            grants[pattern] = role
        }
        if let roleName = claims.role {
            guard let role = Role(rawValue: roleName) else {
                return .failure(.tokenRefused("its role claim \"\(roleName.prefix(40))\" is not reader, writer or admin"))
            }
            // Every store no pattern names: the least specific pattern there is.
            if grants[.anyStore] == nil { grants[.anyStore] = role }
        }
        guard !grants.isEmpty else { return .failure(.tokenRefused("it grants no store (no stores or role claim)")) }
        return .success(StoreAccess(grants: grants, expires: claims.exp?.value, subject: claims.sub?.value))
    }

    private static func reason(_ error: JWTError) -> String {
        switch error.errorType {
        case .signatureVerificationFailed: "its signature does not verify with the server's key"
        case .malformedToken, .invalidHeaderField: "it is not a well-formed JWT"
        case .unknownKID, .missingKIDHeader, .noKeyProvided: "it names a key (kid) the server does not have"
        default: "it does not verify (\(error.errorType))"
        }
    }

    /// Authenticators are the same only when they are one object.
    public static func == (lhs: JWTAuthenticator, rhs: JWTAuthenticator) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
