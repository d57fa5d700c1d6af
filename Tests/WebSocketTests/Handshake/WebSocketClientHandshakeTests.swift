import NIOHTTP1
import Testing
import WebSocket

@Suite struct WebSocketClientHandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func response(_ changes: [(String, String?)] = [], status: HTTPResponseStatus = .switchingProtocols) -> HTTPResponseHead {
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ]
        for (name, value) in changes {
            headers.remove(name: name)
            if let value { headers.add(name: name, value: value) }
        }
        return HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }

    @Test func requestCarriesEverythingTheServerNeeds() {
        let handshake = WebSocketClientHandshake(host: "h:1", path: "/x?y=1", subprotocols: ["a", "b"], extraHeaders: ["Origin": "o"])
        let head = handshake.requestHead
        #expect(head.method == .GET)
        #expect(head.uri == "/x?y=1")
        #expect(head.headers["Host"] == ["h:1"])
        #expect(head.headers["Sec-WebSocket-Protocol"] == ["a, b"])
        #expect(head.headers["Origin"] == ["o"])
        #expect(WebSocketAccept.isValidKey(head.headers["Sec-WebSocket-Key"][0]))
        #expect(WebSocketClientHandshake(host: "h", path: "").requestHead.uri == "/")
    }

    @Test func serverAcceptsWhatClientBuilds() {
        let client = WebSocketClientHandshake(host: "h", path: "/", subprotocols: ["b", "a"])
        guard case .accept(let acceptance) = WebSocketServerHandshake(subprotocols: ["a"]).evaluate(client.requestHead) else {
            Issue.record("server rejected our own request"); return
        }
        #expect(throws: Never.self) {
            let accepted = try client.validate(acceptance.responseHead)
            #expect(accepted.subprotocol == "a")
        }
    }

    @Test func acceptsRFCExampleResponse() throws {
        let handshake = WebSocketClientHandshake(host: "h", path: "/", key: Self.key)
        #expect(try handshake.validate(Self.response()).subprotocol == nil)
    }

    @Test(arguments: [
        ([("Upgrade", nil)], WebSocketHandshakeError.missingUpgrade(found: "")),
        ([("Connection", "close")], .missingConnectionUpgrade(found: "close")),
        ([("Sec-WebSocket-Accept", "xxx")], .badAccept(expected: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", found: "xxx")),
        ([("Sec-WebSocket-Accept", nil)], .badAccept(expected: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", found: nil)),
        ([("Sec-WebSocket-Protocol", "zzz")], .unofferedSubprotocol("zzz", offered: ["chat"])),
        ([("Sec-WebSocket-Extensions", "permessage-deflate")], .unofferedExtension("permessage-deflate")),
    ] as [([(String, String?)], WebSocketHandshakeError)])
    func rejectsBadResponses(changes: [(String, String?)], error: WebSocketHandshakeError) {
        let handshake = WebSocketClientHandshake(host: "h", path: "/", subprotocols: ["chat"], key: Self.key)
        #expect(throws: error) { try handshake.validate(Self.response(changes)) }
    }

    @Test func nonSwitchingStatusIsRejectionWithBody() {
        let handshake = WebSocketClientHandshake(host: "h", path: "/", key: Self.key)
        #expect(throws: WebSocketHandshakeError.rejected(status: .forbidden, body: "no\n")) {
            try handshake.validate(Self.response(status: .forbidden), body: "no\n")
        }
        #expect(WebSocketHandshakeError.rejected(status: .forbidden, body: "no\n").description == "handshake rejected: 403 Forbidden: no")
    }
}
