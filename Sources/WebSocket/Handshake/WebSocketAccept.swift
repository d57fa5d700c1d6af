internal import Crypto

/// The `Sec-WebSocket-Key` / `Sec-WebSocket-Accept` pair of the opening
/// handshake (RFC 6455 §4.1, §4.2.2).
///
/// ```swift
/// WebSocketAccept.value(forKey: "dGhlIHNhbXBsZSBub25jZQ==")
/// // "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
/// ```
public enum WebSocketAccept {
    /// The GUID that RFC 6455 appends to the key before hashing.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `base64(SHA-1(key + GUID))`: the value the server returns for `key`.
    public static func value(forKey key: String) -> String {
        let digest = Insecure.SHA1.hash(data: Array((key + guid).utf8))
        return Base64.encode(Array(digest))
    }

    /// A fresh client key: base64 of 16 random bytes from the system generator.
    public static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return makeKey(using: &generator)
    }

    /// A client key built from `generator` (deterministic generators make
    /// reproducible tests).
    public static func makeKey<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64.encode(bytes)
    }

    /// Whether `key` is a valid `Sec-WebSocket-Key`: base64 of exactly 16 bytes.
    public static func isValidKey(_ key: some StringProtocol) -> Bool {
        Base64.decode(key)?.count == 16
    }
}
