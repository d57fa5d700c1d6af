public import NIOHTTP1

/// The client side of the opening handshake (RFC 6455 §4.1) as pure code:
/// builds the request and validates the server's response.
///
/// ```swift
/// let handshake = WebSocketClientHandshake(host: "example.com:8080", path: "/chat", subprotocols: ["chat.v1"])
/// // write handshake.requestHead, read the response head, then:
/// let accepted = try handshake.validate(responseHead)
/// ```
public struct WebSocketClientHandshake: Sendable {
    /// The `Host` header value (`host` or `host:port`).
    public var host: String
    /// The request target: path and query, e.g. `/chat?room=1`.
    public var path: String
    /// Subprotocols to offer, most preferred first.
    public var subprotocols: [String]
    /// Extra request headers (authorization, cookies, `Origin`).
    public var extraHeaders: HTTPHeaders
    /// permessage-deflate to offer; `nil` offers no extension.
    public var compression: PerMessageDeflateConfiguration?
    /// The `Sec-WebSocket-Key` of this attempt.
    public let key: String

    /// Creates a handshake with a fresh random key.
    public init(
        host: String, path: String, subprotocols: [String] = [], extraHeaders: HTTPHeaders = [:],
        compression: PerMessageDeflateConfiguration? = nil, key: String = WebSocketAccept.makeKey()
    ) {
        self.compression = compression
        self.host = host
        self.path = path.isEmpty ? "/" : path
        self.subprotocols = subprotocols
        self.extraHeaders = extraHeaders
        self.key = key
    }

    /// The GET request that asks for the upgrade.
    public var requestHead: HTTPRequestHead {
        var headers: HTTPHeaders = [
            "Host": host,
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": "13",
        ]
        if !subprotocols.isEmpty {
            headers.add(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", "))
        }
        if let compression {
            headers.add(name: "Sec-WebSocket-Extensions", value: PerMessageDeflate.clientOffer(configuration: compression))
        }
        headers.add(contentsOf: extraHeaders)
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
    }

    /// What a valid response agreed to.
    public struct Accepted: Sendable, Equatable {
        /// The subprotocol the server chose, if any.
        public var subprotocol: String?
        /// The agreed permessage-deflate parameters; `nil` when uncompressed.
        public var compression: PerMessageDeflateParameters?
    }

    /// Validates the response head. A non-101 status throws
    /// ``WebSocketHandshakeError/rejected(status:body:)`` with `body`.
    public func validate(_ head: HTTPResponseHead, body: String = "") throws(WebSocketHandshakeError) -> Accepted {
        guard head.status == .switchingProtocols else {
            throw .rejected(status: head.status, body: body)
        }
        let headers = head.headers
        guard headers.containsToken("websocket", inHeader: "Upgrade") else {
            throw .missingUpgrade(found: headers["Upgrade"].joined(separator: ", "))
        }
        guard headers.containsToken("upgrade", inHeader: "Connection") else {
            throw .missingConnectionUpgrade(found: headers["Connection"].joined(separator: ", "))
        }
        let expected = WebSocketAccept.value(forKey: key)
        let accepts = headers["Sec-WebSocket-Accept"]
        guard accepts.count == 1, accepts[0].trimmingHTTPWhitespace() == expected else {
            throw .badAccept(expected: expected, found: accepts.isEmpty ? nil : accepts.joined(separator: ", "))
        }
        let chosen = headers.tokens(inHeader: "Sec-WebSocket-Protocol")
        if chosen.count > 1 || (chosen.count == 1 && !subprotocols.contains(chosen[0])) {
            throw .unofferedSubprotocol(chosen.joined(separator: ", "), offered: subprotocols)
        }
        let extensions = headers["Sec-WebSocket-Extensions"].joined(separator: ", ")
        guard !extensions.isEmpty else {
            return Accepted(subprotocol: chosen.first, compression: nil)
        }
        guard let compression else { throw .unofferedExtension(extensions) }
        do {
            let parameters = try PerMessageDeflate.acceptResponse(extensions, offered: compression)
            return Accepted(subprotocol: chosen.first, compression: parameters)
        } catch {
            throw .invalidExtensionResponse(extensions, reason: "\(error)")
        }
    }
}
