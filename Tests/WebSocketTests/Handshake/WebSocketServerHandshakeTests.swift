import NIOHTTP1
import Testing
import WebSocket

@Suite struct WebSocketServerHandshakeTests {
    static func request(
        method: HTTPMethod = .GET, version: HTTPVersion = .http1_1, _ headers: [(String, String)]? = nil
    ) -> HTTPRequestHead {
        let defaults = [
            ("Host", "example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ]
        return HTTPRequestHead(version: version, method: method, uri: "/chat", headers: HTTPHeaders(headers ?? defaults))
    }

    static func replacing(_ name: String, with value: String?) -> HTTPRequestHead {
        var head = request()
        head.headers.remove(name: name)
        if let value { head.headers.add(name: name, value: value) }
        return head
    }

    @Test func acceptsRFCExample() throws {
        guard case .accept(let acceptance) = WebSocketServerHandshake().evaluate(Self.request()) else {
            Issue.record("expected acceptance"); return
        }
        #expect(acceptance.responseHead.status == .switchingProtocols)
        #expect(acceptance.responseHead.headers["Sec-WebSocket-Accept"] == ["s3pPLMBiTxaQ9kYGzzhZRbK+xOo="])
        #expect(acceptance.responseHead.headers["Upgrade"] == ["websocket"])
        #expect(acceptance.responseHead.headers["Sec-WebSocket-Protocol"].isEmpty)
        #expect(acceptance.subprotocol == nil)
    }

    @Test(arguments: [
        ("Upgrade", "WebSocket"), ("Upgrade", "h2c, WEBSOCKET"),
        ("Connection", "keep-alive, upgrade"), ("Connection", "keep-alive,Upgrade "),
    ])
    func tokensMatchCaseInsensitivelyInLists(name: String, value: String) {
        let outcome = WebSocketServerHandshake().evaluate(Self.replacing(name, with: value))
        guard case .accept = outcome else { Issue.record("rejected \(name): \(value)"); return }
    }

    @Test(arguments: [
        ("Upgrade", nil, 426), ("Upgrade", "h2c", 426), ("Upgrade", "websockets", 426),
        ("Connection", nil, 400), ("Connection", "keep-alive", 400), ("Connection", "upgraded", 400),
        ("Host", nil, 400),
        ("Sec-WebSocket-Version", nil, 426), ("Sec-WebSocket-Version", "8", 426), ("Sec-WebSocket-Version", "13, 8", 426),
        ("Sec-WebSocket-Key", nil, 400), ("Sec-WebSocket-Key", "short", 400),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZXg=", 400),
    ] as [(String, String?, Int)])
    func rejectsBadHeaders(name: String, value: String?, status: Int) {
        guard case .reject(let rejection) = WebSocketServerHandshake().evaluate(Self.replacing(name, with: value)) else {
            Issue.record("accepted \(name): \(value ?? "(none)")"); return
        }
        #expect(Int(rejection.status.code) == status)
        #expect(!rejection.reason.isEmpty)
        if name == "Sec-WebSocket-Version" {
            #expect(rejection.headers["Sec-WebSocket-Version"] == ["13"])
        }
        if let value, name == "Sec-WebSocket-Key" {
            #expect(rejection.reason.contains(value))
        }
    }

    @Test func rejectsTwoKeys() {
        var head = Self.request()
        head.headers.add(name: "Sec-WebSocket-Key", value: "AAAAAAAAAAAAAAAAAAAAAA==")
        guard case .reject(let rejection) = WebSocketServerHandshake().evaluate(head) else {
            Issue.record("accepted two keys"); return
        }
        #expect(rejection.status == .badRequest)
    }

    @Test func rejectsPostAndHTTP10() {
        guard case .reject(let post) = WebSocketServerHandshake().evaluate(Self.request(method: .POST, nil)),
              case .reject(let old) = WebSocketServerHandshake().evaluate(Self.request(version: .http1_0, nil))
        else { Issue.record("accepted"); return }
        #expect(post.status == .methodNotAllowed)
        #expect(post.headers["Allow"] == ["GET"])
        #expect(old.status == .badRequest)
    }

    @Test(arguments: [
        (["v3", "v2"], "v1, v2, v3", "v3"),
        (["v2", "v3"], "v1, v2, v3", "v2"),
        (["v9"], "v1, v2", nil),
        ([], "v1", nil),
        (["v1"], "", nil),
    ] as [([String], String, String?)])
    func subprotocolFollowsServerPreference(server: [String], offered: String, chosen: String?) {
        let head = offered.isEmpty ? Self.request() : Self.replacing("Sec-WebSocket-Protocol", with: offered)
        guard case .accept(let acceptance) = WebSocketServerHandshake(subprotocols: server).evaluate(head) else {
            Issue.record("rejected"); return
        }
        #expect(acceptance.subprotocol == chosen)
        #expect(acceptance.responseHead.headers["Sec-WebSocket-Protocol"] == (chosen.map { [$0] } ?? []))
    }

    @Test(arguments: [
        ("chat.v2, chat.v3", false),
        ("chat.v2, statesync.v1", true),
        ("", true),
    ])
    func rejectsUnknownSubprotocolsRefusesOffersWithoutAKnownOne(offered: String, accepted: Bool) {
        let head = offered.isEmpty ? Self.request() : Self.replacing("Sec-WebSocket-Protocol", with: offered)
        let handshake = WebSocketServerHandshake(subprotocols: ["statesync.v1"], rejectsUnknownSubprotocols: true)
        switch handshake.evaluate(head) {
        case .accept(let acceptance):
            #expect(accepted)
            #expect(acceptance.subprotocol == (offered.isEmpty ? nil : "statesync.v1"))
        case .reject(let rejection):
            #expect(!accepted)
            #expect(rejection.responseHead().status == .badRequest)
            #expect(rejection.reason.contains("chat.v2, chat.v3"))
        }
    }

    @Test func originCheckSeesOriginAndRejectsWith403() {
        let handshake = WebSocketServerHandshake(originCheck: { $0 == "https://good.example" })
        guard case .accept = handshake.evaluate(Self.replacing("Origin", with: "https://good.example")),
              case .reject(let bad) = handshake.evaluate(Self.replacing("Origin", with: "https://evil.example")),
              case .reject(let none) = handshake.evaluate(Self.request())
        else { Issue.record("origin check ignored"); return }
        #expect(bad.status == .forbidden)
        #expect(bad.reason.contains("evil.example"))
        #expect(none.status == .forbidden)
    }

    @Test func rejectionResponseCarriesBodyLength() {
        let rejection = WebSocketHandshakeRejection(status: .badRequest, reason: "nope")
        let head = rejection.responseHead()
        #expect(head.headers["Content-Length"] == ["5"])
        #expect(head.headers["Connection"] == ["close"])
        #expect(rejection.description == "400 Bad Request: nope")
    }
}

@Suite struct WebSocketHandshakeCompressionTests {
    @Test func clientOfferIsNegotiatedAndAccepted() throws {
        let client = WebSocketClientHandshake(host: "h", path: "/", compression: PerMessageDeflateConfiguration())
        guard case .accept(let acceptance) = WebSocketServerHandshake().evaluate(
            client.requestHead, compression: PerMessageDeflateConfiguration())
        else { Issue.record("rejected"); return }
        let serverParameters = try #require(acceptance.compression)
        let accepted = try client.validate(acceptance.responseHead)
        #expect(accepted.compression == serverParameters)
    }

    @Test func serverWithoutCompressionDeclinesOffer() throws {
        let client = WebSocketClientHandshake(host: "h", path: "/", compression: PerMessageDeflateConfiguration())
        guard case .accept(let acceptance) = WebSocketServerHandshake().evaluate(client.requestHead) else {
            Issue.record("rejected"); return
        }
        #expect(acceptance.compression == nil)
        #expect(acceptance.responseHead.headers["Sec-WebSocket-Extensions"].isEmpty)
        #expect(try client.validate(acceptance.responseHead).compression == nil)
    }

    @Test func malformedOfferIsRejectedWith400() {
        let head = WebSocketServerHandshakeTests.replacing("Sec-WebSocket-Extensions", with: "permessage-deflate; =;")
        guard case .reject(let rejection) = WebSocketServerHandshake().evaluate(head, compression: .init()) else {
            Issue.record("accepted a malformed offer"); return
        }
        #expect(rejection.status == .badRequest)
    }
}
