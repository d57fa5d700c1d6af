public import Foundation
import JWTKit

/// The key that verifies a server's JWTs, read from `--jwt-key-file`: a PEM
/// file is an ES256 (P-256) key (public, or an EC private key's public half);
/// any other file is an HS256 secret, trimmed, at least 32 bytes (RFC 7518 §3.2).
///
/// ```swift
/// let key = try JWTKey.load(fileAt: "/etc/statesync/jwt-public.pem")
/// ```
public struct JWTKey: Sendable {
    enum Base: Sendable {
        case hs256(secret: [UInt8])
        case es256(ES256PublicKey)
    }

    let base: Base

    /// Whether the key is a shared secret (HS256), which only the server
    /// and the token minter may read; an ES256 key here is public.
    public var isSecret: Bool {
        if case .hs256 = base { return true }
        return false
    }

    /// The fewest bytes an HS256 secret may have.
    public static let minimumSecretBytes = 32

    /// The key in the file at `path`.
    ///
    /// - Throws: ``JWTKeyError`` naming the file and what is wrong with it.
    public static func load(fileAt path: String) throws(JWTKeyError) -> JWTKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JWTKeyError(source: path, reason: "it cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), source: path)
    }

    /// The key `text` holds (a PEM or a secret); `source` names it in errors.
    ///
    /// - Throws: ``JWTKeyError``: a PEM without a P-256 key, or a secret shorter than ``minimumSecretBytes``.
    public static func parse(_ text: String, source: String) throws(JWTKeyError) -> JWTKey {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("-----BEGIN") else {
            let secret = Array(trimmed.utf8)
            guard secret.count >= minimumSecretBytes else {
                throw JWTKeyError(
                    source: source,
                    reason: "an HS256 secret must have at least \(minimumSecretBytes) bytes; this one has \(secret.count)")
            }
            return JWTKey(base: .hs256(secret: secret))
        }
        do {
            if trimmed.contains("PRIVATE KEY") { return JWTKey(base: .es256(try ES256PrivateKey(pem: trimmed).publicKey)) }
            return JWTKey(base: .es256(try ES256PublicKey(pem: trimmed)))
        } catch {
            throw JWTKeyError(source: source, reason: "the PEM does not hold a P-256 (ES256) public or private key")
        }
    }
}

/// A key file (or text) that holds no usable key.
public struct JWTKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the key came from: a file's path.
    public let source: String
    /// What is wrong with it.
    public let reason: String

    /// Names the source and the problem.
    public var description: String { "JWT key \(source): \(reason)" }
}
