import NIOCore
import NIOHTTP1
import Testing
import WebSocket

@Suite(.timeLimit(.minutes(1))) struct WebSocketServerTests {
    @Test func echoesTextAndBinaryOverLoopback() async throws {
        try await withTestServer(routes: [echoRoute()]) { _, port in
            let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/echo")
            try await connection.outbound.send(text: "hello")
            try await connection.outbound.send(binary: ByteBuffer(bytes: [1, 2, 3]))
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("hello"))
            #expect(await iterator.next() == .binary(ByteBuffer(bytes: [1, 2, 3])))
            try await connection.outbound.close(code: .normalClosure, reason: "done")
            #expect(await iterator.next() == nil)
            #expect(connection.closeStatus?.code == .normalClosure)
        }
    }

    @Test func compressedEchoRoundTrips() async throws {
        try await withTestServer(routes: [echoRoute()]) { _, port in
            let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/echo")
            let big = String(repeating: "compress me ", count: 500)
            try await connection.outbound.send(text: big)
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next()?.text == big)
            try await connection.outbound.close()
        }
    }

    @Test func servesPlainHTTPRoutesAnd404OnTheSamePort() async throws {
        let health = HTTPRoute(path: "/health") { _, _ in HTTPRouteResponse(status: .ok, body: "ok\n") }
        try await withTestServer(routes: [echoRoute()], httpRoutes: [health]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /missing?q=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let response = String(buffer: try await client.receiveUntilClosed())
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(response.contains("\r\n\r\nok\n"))
            #expect(response.contains("HTTP/1.1 404 Not Found\r\n"))
            #expect(response.contains("no route for /missing"))
        }
    }

    @Test func rejectsBadUpgradeWithReason() async throws {
        try await withTestServer(routes: [echoRoute()]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send(upgradeRequest(version: "8"))
            let response = String(buffer: try await client.receiveUntilClosed())
            #expect(response.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
            #expect(response.contains("Sec-WebSocket-Version: 13\r\n"))
            #expect(response.contains("is not supported; this server speaks 13"))
        }
    }

    @Test func refusesOversizedRequestHeadWith431() async throws {
        let configuration = WebSocketServerConfiguration(maxRequestHeadSize: 1024)
        try await withTestServer(configuration: configuration, routes: [echoRoute()]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send("GET /echo HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 4000))\r\n\r\n")
            let response = String(buffer: try await client.receiveUntilClosed())
            #expect(response.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        }
    }

    @Test func framesSentWithTheRequestReachTheWebSocket() async throws {
        // An event-loop echo answers within the same read, before the close frame is handled.
        let route = WebSocketRoute(path: "/echo", handler: .eventLoop(RecordingEventLoopHandler()))
        try await withTestServer(routes: [route]) { _, port in
            let client = try await RawTCPClient(port: port)
            let frames = clientFrame(opcode: 0x1, payload: utf8("early")) + clientFrame(opcode: 0x8, payload: [0x03, 0xE8])
            try await client.send(Array(upgradeRequest().utf8) + frames)
            let bytes = Array(try await client.receiveUntilClosed().readableBytesView)
            let headEnd = try #require((0..<bytes.count - 3).first { Array(bytes[$0..<$0 + 4]) == [13, 10, 13, 10] })
            let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
            #expect(head.hasPrefix("HTTP/1.1 101 Switching Protocols"))
            let frameBytes = Array(bytes[(headEnd + 4)...])
            #expect(frameBytes == [0x81, 0x05] + utf8("early") + [0x88, 0x02, 0x03, 0xE8])
        }
    }

    @Test func routesByPathWithPerRouteSubprotocols() async throws {
        let chat = WebSocketRoute(path: "/chat", handshake: .init(subprotocols: ["chat.v2", "chat.v1"])) { connection in
            try await connection.outbound.send(text: "protocol=\(connection.subprotocol ?? "none")")
        }
        try await withTestServer(routes: [echoRoute(), chat]) { _, port in
            let connection = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/chat?room=1", subprotocols: ["chat.v1", "chat.v2"])
            #expect(connection.subprotocol == "chat.v2")
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("protocol=chat.v2"))
            #expect(await iterator.next() == nil)  // handler returned: server closed with 1000
            #expect(connection.closeStatus?.code == .normalClosure)
        }
    }

    @Test func shutdownClosesOpenConnectionsWithGoingAway() async throws {
        let server = try WebSocketServer(routes: [echoRoute()])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let port = try await server.waitUntilStarted().port ?? 0
            let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/echo")
            try await connection.outbound.send(text: "x")
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("x"))
            #expect(server.connectionCount == 1)
            server.shutdown()
            #expect(await iterator.next() == nil)
            #expect(connection.closeStatus?.code == .goingAway)
            try await group.waitForAll()
        }
        await #expect(throws: WebSocketServerError.notRunning) { try await server.waitUntilStarted() }
    }

    @Test func aConnectionLeavesTheCountWhenItEndsHoweverItEnds() async throws {
        let loopRoute = WebSocketRoute(path: "/loop", handler: .eventLoop(RecordingEventLoopHandler()))
        try await withTestServer(routes: [echoRoute(), loopRoute]) { server, port in
            var connections: [WebSocketConnection] = []
            for path in ["/echo", "/echo", "/loop", "/loop"] {
                let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)\(path)")
                try await connection.outbound.send(text: "x")
                var iterator = connection.inbound.makeAsyncIterator()
                #expect(await iterator.next() != nil)   // the server has it open
                connections.append(connection)
            }
            #expect(server.connectionCount == 4)
            // One of each route closes with the handshake, one drops its TCP connection.
            try await connections[0].outbound.close()
            try await connections[2].outbound.close()
            try await connections[1].outbound.channel.close()
            try await connections[3].outbound.channel.close()
            // The server sees each end on its own event loop: poll, bounded.
            let deadline = ContinuousClock.now + .seconds(10)
            while server.connectionCount > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.connectionCount == 0)
        }
    }

    @Test func eventLoopRouteHandlesMessagesWithoutTasks() async throws {
        let recorder = RecordingEventLoopHandler()
        let route = WebSocketRoute(path: "/loop", handler: .eventLoop(recorder))
        try await withTestServer(routes: [route]) { _, port in
            let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/loop")
            try await connection.outbound.send(text: "ping")
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next() == .text("ping"))
            try await connection.outbound.close()
        }
        #expect(recorder.opened == 1)
        #expect(recorder.messages == [.text("ping")])
        #expect(recorder.closed.map(\.code) == [.normalClosure])
    }

    @Test func throwingHandlerClosesWithInternalError() async throws {
        struct Boom: Error {}
        let route = WebSocketRoute(path: "/boom") { _ in throw Boom() }
        try await withTestServer(routes: [route]) { _, port in
            let connection = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/boom")
            var iterator = connection.inbound.makeAsyncIterator()
            #expect(await iterator.next() == nil)
            #expect(connection.closeStatus?.code == .internalError)
        }
    }

    @Test func httpRouteRefusesOtherMethodsAndLargeBodies() async throws {
        let health = HTTPRoute(path: "/health", methods: [.GET, .POST]) { _, body in
            HTTPRouteResponse(status: .ok, body: "got \(body.readableBytes)\n")
        }
        let configuration = WebSocketServerConfiguration(maxRequestBodySize: 10)
        try await withTestServer(configuration: configuration, routes: [], httpRoutes: [health]) { _, port in
            let client = try await RawTCPClient(port: port)
            try await client.send("DELETE /health HTTP/1.1\r\nHost: x\r\n\r\nPOST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n01234567890123456789")
            let response = String(buffer: try await client.receiveUntilClosed())
            #expect(response.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
            #expect(response.contains("Allow: GET, POST\r\n"))
            #expect(response.contains("got 3\n"))
            #expect(response.contains("HTTP/1.1 413 Payload Too Large\r\n"))
        }
    }
}
