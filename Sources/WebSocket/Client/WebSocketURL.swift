/// A parsed `ws://` or `wss://` URL (RFC 6455 §3).
///
/// ```swift
/// let url = try WebSocketURL("wss://example.com/chat?room=1")
/// // url.host == "example.com", url.port == 443, url.path == "/chat?room=1", url.isSecure
/// ```
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    /// Whether the scheme is `wss` (TLS).
    public var isSecure: Bool
    /// The host name or address (IPv6 without brackets).
    public var host: String
    /// The port: explicit, or 80 for `ws` and 443 for `wss`.
    public var port: Int
    /// The request target: path and query (at least `/`).
    public var path: String

    /// Parses `string`; throws ``WebSocketHandshakeError/invalidURL(_:reason:)``.
    public init(_ string: String) throws(WebSocketHandshakeError) {
        let lowered = string.lowercased()
        let rest: Substring
        if lowered.hasPrefix("ws://") {
            isSecure = false
            rest = string.dropFirst(5)
        } else if lowered.hasPrefix("wss://") {
            isSecure = true
            rest = string.dropFirst(6)
        } else {
            throw .invalidURL(string, reason: "the scheme must be ws:// or wss://")
        }
        guard !rest.contains("#") else {
            throw .invalidURL(string, reason: "a WebSocket URL cannot have a fragment")
        }
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<pathStart]
        let target = rest[pathStart...]
        path = target.isEmpty ? "/" : (target.first == "?" ? "/" + target : String(target))
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        var portText: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else {
                throw .invalidURL(string, reason: "unterminated IPv6 address")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.first == ":" { portText = after.dropFirst() } else if !after.isEmpty {
                throw .invalidURL(string, reason: "unexpected \"\(after)\" after the IPv6 address")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = authority[authority.index(after: colon)...]
        } else {
            host = String(authority)
        }
        guard !host.isEmpty else {
            throw .invalidURL(string, reason: "the host is empty")
        }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else {
                throw .invalidURL(string, reason: "port \"\(portText)\" is not a number from 1 to 65535")
            }
            self.port = port
        } else {
            port = isSecure ? 443 : 80
        }
    }

    /// The `Host` header value: the port is included unless it is the scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The URL in canonical form.
    public var description: String {
        "\(isSecure ? "wss" : "ws")://\(hostHeader)\(path)"
    }
}
