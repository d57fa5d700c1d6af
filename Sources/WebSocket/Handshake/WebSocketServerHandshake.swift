public import NIOHTTP1

/// The server side of the opening handshake (RFC 6455 §4.2) as a pure
/// function of the request head: no channel, no I/O.
///
/// ```swift
/// let handshake = WebSocketServerHandshake(subprotocols: ["chat.v2", "chat.v1"])
/// switch handshake.evaluate(requestHead) {
/// case .accept(let acceptance): // write `acceptance.responseHead`, switch protocols
/// case .reject(let rejection):  // write `rejection.responseHead()` + body, close
/// }
/// ```
public struct WebSocketServerHandshake: Sendable {
    /// Decides whether a request's `Origin` header (nil when absent) may open
    /// a WebSocket; returning `false` rejects it with 403.
    public typealias OriginCheck = @Sendable (_ origin: String?) -> Bool

    /// Subprotocols this endpoint speaks, most preferred first; the first the client offered is picked, and with
    /// none in common the connection opens without one (RFC 6455 §4.2.2 leaves the decision to the client).
    public var subprotocols: [String]
    /// The origin check; `nil` accepts every origin (non-browser clients send none).
    public var originCheck: OriginCheck?
    /// Whether a client offering only unknown subprotocols is refused with 400 instead of opening without one.
    /// Default `false`; a protocol that must not be spoken by mistake (`statesync.v1`) sets it.
    public var rejectsUnknownSubprotocols: Bool

    /// Creates a handshake policy.
    public init(
        subprotocols: [String] = [],
        originCheck: OriginCheck? = nil,
        rejectsUnknownSubprotocols: Bool = false
    ) {
        self.subprotocols = subprotocols
        self.originCheck = originCheck
        self.rejectsUnknownSubprotocols = rejectsUnknownSubprotocols
    }

    /// The result of evaluating a request.
    public enum Outcome: Sendable {
        /// The request is a valid upgrade: send the 101 response.
        case accept(WebSocketHandshakeAcceptance)
        /// The request is refused: send this response and close.
        case reject(WebSocketHandshakeRejection)
    }

    /// Validates `head` and computes the response; with `compression` set,
    /// a permessage-deflate offer is negotiated (RFC 7692), otherwise every
    /// extension offer is declined.
    public func evaluate(_ head: HTTPRequestHead, compression: PerMessageDeflateConfiguration? = nil) -> Outcome {
        do {
            return .accept(try accept(head, compression: compression))
        } catch {
            return .reject(error)
        }
    }

    private func accept(
        _ head: HTTPRequestHead, compression: PerMessageDeflateConfiguration?
    ) throws(WebSocketHandshakeRejection) -> WebSocketHandshakeAcceptance {
        let headers = head.headers
        guard head.method == .GET else {
            throw WebSocketHandshakeRejection(
                status: .methodNotAllowed, headers: ["Allow": "GET"],
                reason: "a WebSocket upgrade must use GET, not \(head.method.rawValue)")
        }
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            throw WebSocketHandshakeRejection(
                status: .badRequest, reason: "a WebSocket upgrade needs HTTP/1.1, got \(head.version)")
        }
        guard headers.containsToken("websocket", inHeader: "Upgrade") else {
            let found = headers["Upgrade"].joined(separator: ", ")
            throw WebSocketHandshakeRejection(
                status: .upgradeRequired, headers: ["Upgrade": "websocket", "Connection": "Upgrade"],
                reason: found.isEmpty
                    ? "this endpoint only speaks WebSocket: send Upgrade: websocket"
                    : "Upgrade \"\(found)\" does not contain websocket")
        }
        guard headers.containsToken("upgrade", inHeader: "Connection") else {
            throw WebSocketHandshakeRejection(
                status: .badRequest,
                reason: "Connection \"\(headers["Connection"].joined(separator: ", "))\" does not contain Upgrade")
        }
        guard !headers["Host"].isEmpty else {
            throw WebSocketHandshakeRejection(status: .badRequest, reason: "the Host header is missing")
        }
        let versions = headers.tokens(inHeader: "Sec-WebSocket-Version")
        guard versions == ["13"] else {
            throw WebSocketHandshakeRejection(
                status: .upgradeRequired, headers: ["Sec-WebSocket-Version": "13"],
                reason: versions.isEmpty
                    ? "Sec-WebSocket-Version is missing; this server speaks 13"
                    : "Sec-WebSocket-Version \"\(versions.joined(separator: ", "))\" is not supported; this server speaks 13")
        }
        let keys = headers["Sec-WebSocket-Key"]
        guard keys.count == 1, let key = keys.first.map({ String($0.trimmingHTTPWhitespace()) }) else {
            throw WebSocketHandshakeRejection(
                status: .badRequest, reason: "expected one Sec-WebSocket-Key header, got \(keys.count)")
        }
        guard WebSocketAccept.isValidKey(key) else {
            throw WebSocketHandshakeRejection(
                status: .badRequest, reason: "Sec-WebSocket-Key \"\(key)\" is not base64 of 16 bytes")
        }
        if let originCheck {
            let origin = headers.first(name: "Origin")
            guard originCheck(origin) else {
                throw WebSocketHandshakeRejection(
                    status: .forbidden, reason: "origin \"\(origin ?? "(none)")\" is not allowed")
            }
        }

        var response: HTTPHeaders = [
            "Upgrade": "websocket",
            "Connection": "Upgrade",
            "Sec-WebSocket-Accept": WebSocketAccept.value(forKey: key),
        ]
        let offeredProtocols = headers.tokens(inHeader: "Sec-WebSocket-Protocol")
        let subprotocol = subprotocols.first { offeredProtocols.contains($0) }
        if rejectsUnknownSubprotocols, subprotocol == nil, !offeredProtocols.isEmpty {
            throw WebSocketHandshakeRejection(
                status: .badRequest,
                reason: "none of the offered subprotocols (\(offeredProtocols.joined(separator: ", "))) is spoken here; "
                    + "offer \(subprotocols.joined(separator: " or ")) or none")
        }
        if let subprotocol {
            response.add(name: "Sec-WebSocket-Protocol", value: subprotocol)
        }
        var deflate: PerMessageDeflateParameters?
        let offers = headers["Sec-WebSocket-Extensions"]
        if let compression, !offers.isEmpty {
            do {
                if let (responseHeader, parameters) = try PerMessageDeflate.negotiate(offers: offers, configuration: compression) {
                    response.add(name: "Sec-WebSocket-Extensions", value: responseHeader)
                    deflate = parameters
                }
            } catch {
                throw WebSocketHandshakeRejection(status: .badRequest, reason: "Sec-WebSocket-Extensions: \(error)")
            }
        }
        return WebSocketHandshakeAcceptance(
            responseHead: HTTPResponseHead(version: .http1_1, status: .switchingProtocols, headers: response),
            subprotocol: subprotocol,
            compression: deflate)
    }
}

/// A successful opening handshake, seen from the server.
public struct WebSocketHandshakeAcceptance: Sendable {
    /// The `101 Switching Protocols` response to send.
    public var responseHead: HTTPResponseHead
    /// The subprotocol both sides agreed on, if any.
    public var subprotocol: String?
    /// The agreed permessage-deflate parameters; `nil` when uncompressed.
    public var compression: PerMessageDeflateParameters?
}
