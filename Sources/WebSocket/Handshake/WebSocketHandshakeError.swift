public import NIOHTTP1

/// Why a client's opening handshake failed: the server refused it or gave an invalid RFC 6455 §4.1 response.
/// Each error names the value that was wrong.
public struct WebSocketHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Base: Equatable {
        case rejected(status: HTTPResponseStatus, body: String)
        case missingUpgrade(found: String)
        case missingConnectionUpgrade(found: String)
        case badAccept(expected: String, found: String?)
        case unofferedSubprotocol(String, offered: [String])
        case unofferedExtension(String)
        case invalidExtensionResponse(String, reason: String)
        case invalidURL(String, reason: String)
        case connectionClosedDuringHandshake
    }

    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// The server answered with `status` instead of 101; `body` is its reason text.
    public static func rejected(status: HTTPResponseStatus, body: String) -> Self {
        Self(.rejected(status: status, body: body))
    }
    /// The 101 response lacks `Upgrade: websocket`.
    public static func missingUpgrade(found: String) -> Self { Self(.missingUpgrade(found: found)) }
    /// The 101 response lacks `Connection: Upgrade`.
    public static func missingConnectionUpgrade(found: String) -> Self {
        Self(.missingConnectionUpgrade(found: found))
    }
    /// `Sec-WebSocket-Accept` is missing or does not match our key.
    public static func badAccept(expected: String, found: String?) -> Self {
        Self(.badAccept(expected: expected, found: found))
    }
    /// The server chose a subprotocol we did not offer.
    public static func unofferedSubprotocol(_ name: String, offered: [String]) -> Self {
        Self(.unofferedSubprotocol(name, offered: offered))
    }
    /// The server enabled an extension we did not offer (or answered our offer badly).
    public static func unofferedExtension(_ header: String) -> Self { Self(.unofferedExtension(header)) }
    /// The server's permessage-deflate answer breaks RFC 7692 or exceeds our offer.
    public static func invalidExtensionResponse(_ header: String, reason: String) -> Self {
        Self(.invalidExtensionResponse(header, reason: reason))
    }
    /// The URL cannot be used for a WebSocket connection.
    public static func invalidURL(_ url: String, reason: String) -> Self { Self(.invalidURL(url, reason: reason)) }
    /// The server closed the connection before the handshake completed.
    public static let connectionClosedDuringHandshake = Self(.connectionClosedDuringHandshake)

    /// A sentence naming what was wrong.
    public var description: String {
        switch base {
        case .rejected(let status, let body):
            let trimmed = body.trimmingHTTPWhitespace().trimmingSuffix("\n")
            return "handshake rejected: \(status.code) \(status.reasonPhrase)" + (trimmed.isEmpty ? "" : ": \(trimmed)")
        case .missingUpgrade(let found):
            return "handshake response has Upgrade \"\(found)\", expected websocket"
        case .missingConnectionUpgrade(let found):
            return "handshake response has Connection \"\(found)\", expected Upgrade"
        case .badAccept(let expected, let found):
            return "handshake response has Sec-WebSocket-Accept \"\(found ?? "(none)")\", expected \"\(expected)\""
        case .unofferedSubprotocol(let name, let offered):
            return "server chose subprotocol \"\(name)\", which we did not offer (offered: \(offered.joined(separator: ", ")))"
        case .unofferedExtension(let header):
            return "server answered Sec-WebSocket-Extensions \"\(header)\", which does not match our offer"
        case .invalidExtensionResponse(let header, let reason):
            return "server answered Sec-WebSocket-Extensions \"\(header)\": \(reason)"
        case .invalidURL(let url, let reason):
            return "invalid WebSocket URL \"\(url)\": \(reason)"
        case .connectionClosedDuringHandshake:
            return "the server closed the connection during the handshake"
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var string = String(self)
        while string.hasSuffix(suffix) { string.removeLast(suffix.count) }
        return string
    }
}
