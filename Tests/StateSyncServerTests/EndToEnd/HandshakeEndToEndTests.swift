import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing
import WebSocket

/// The session's opening over real sockets: subprotocol, hello/welcome,
/// hello first, tokens and roles.
@Suite(.timeLimit(.minutes(1)))
struct HandshakeEndToEndTests {
    @Test func welcomeCarriesSessionEpochRevRoleAndServer() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.connect(server.url)
            #expect(client.connection.subprotocol == ProtocolVersion.subprotocol)
            try await client.send(#"{"type":"hello","clientId":"c-5f2a","name":"alice-laptop"}"#)
            let welcome = try await client.receive("welcome")
            #expect(welcome["session"]?.stringValue?.hasPrefix("s-") == true)
            #expect(welcome["epoch"]?.stringValue?.isEmpty == false)
            #expect(welcome["rev"]?.int64Value != nil)
            #expect(welcome["role"] == "writer")
            #expect(welcome["server"] == "statesync/0.1.0")
            try await client.close()
        }
    }

    @Test func noSubprotocolOfferedStillOpens() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.connect(server.url, subprotocols: [])
            #expect(client.connection.subprotocol == nil)
            try await client.send(#"{"type":"hello"}"#)
            _ = try await client.receive("welcome")
        }
    }

    @Test func otherSubprotocolsOnlyAreRefusedWith400() async throws {
        try await TestServer.with { server in
            do {
                _ = try await ProtocolClient.connect(server.url, subprotocols: ["chat.v2"])
                Issue.record("the handshake succeeded")
            } catch let error as WebSocketHandshakeError {
                #expect("\(error)".contains("400"))
            }
        }
    }

    @Test(arguments: [
        (#"{"type":"subscribe","id":"s1","path":"/todos"}"#, "s1"),
        (#"{"type":"get","id":"g1","path":""}"#, "g1"),
        ("not json", nil),
        (#"{"type":"nope","id":"x1"}"#, "x1"),
    ] as [(String, String?)])
    func anythingButHelloFirstIsHelloRequiredAndCloses1008(first: String, id: String?) async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.connect(server.url)
            try await client.send(first)
            let error = try await client.receive("error")
            #expect(error["code"] == "hello_required")
            #expect(error["id"]?.stringValue == id)
            #expect(try await client.drainUntilClosed().isEmpty)
            #expect(client.closeCode == 1008)
        }
    }

    @Test func binaryFirstIsHelloRequired() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.connect(server.url)
            try await client.sendBinary([1, 2, 3])
            #expect(try await client.receive("error")["code"] == "hello_required")
            _ = try await client.drainUntilClosed()
            #expect(client.closeCode == 1008)
        }
    }

    static var authenticated: StateSyncServerConfiguration {
        var configuration = TestServer.configuration
        configuration.authentication = .tokens(["admin-token": .admin, "write-token": .writer, "read-token": .reader])
        return configuration
    }

    @Test(arguments: [nil, "wrong"] as [String?])
    func missingOrWrongTokenIsUnauthorizedAndCloses1008(token: String?) async throws {
        try await TestServer.with(Self.authenticated) { server in
            let client = try await ProtocolClient.connect(server.url)
            var hello: JSONObject = ["type": "hello"]
            if let token { hello["token"] = .string(token) }
            try await client.send(.object(hello))
            let error = try await client.receive("error")
            #expect(error["code"] == "unauthorized")
            #expect(error["message"]?.stringValue?.contains("wrong") == false)
            _ = try await client.drainUntilClosed()
            #expect(client.closeCode == 1008)
        }
    }

    @Test(arguments: [("admin-token", "admin"), ("write-token", "writer"), ("read-token", "reader")])
    func tokenGrantsItsRole(token: String, role: String) async throws {
        try await TestServer.with(Self.authenticated) { server in
            let client = try await ProtocolClient.connect(server.url)
            try await client.send(.object(["type": "hello", "token": .string(token)]))
            #expect(try await client.receive("welcome")["role"]?.stringValue == role)
        }
    }

    @Test func readerMayReadButNotDispatch() async throws {
        try await TestServer.with(Self.authenticated) { server in
            let reader = try await ProtocolClient.joined(server.url, token: "read-token")
            try await reader.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits"}}"#)
            let reject = try await reader.receive("reject")
            #expect(reject["id"] == "a1")
            #expect(reject["code"] == "forbidden")
            try await reader.send(#"{"type":"get","id":"g1","path":"/counters"}"#)
            let value = try await reader.receive("value")
            #expect(value["value"] == .object([:]))
        }
    }

    @Test func restrictedPathIsForbiddenBelowItsRoleAndOpenAtIt() async throws {
        var configuration = Self.authenticated
        configuration.session.readPermissions = ReadPermissions([try JSONPointer(parsing: "/presence"): .admin])
        try await TestServer.with(configuration) { server in
            let writer = try await ProtocolClient.joined(server.url, token: "write-token")
            try await writer.send(#"{"type":"subscribe","id":"s1","path":""}"#)
            let error = try await writer.receive("error")
            #expect(error["id"] == "s1")
            #expect(error["code"] == "forbidden")
            try await writer.send(#"{"type":"get","id":"g1","path":"/counters"}"#)
            _ = try await writer.receive("value")    // still open, other paths readable

            let admin = try await ProtocolClient.joined(server.url, token: "admin-token")
            try await admin.send(#"{"type":"get","id":"g2","path":"/presence"}"#)
            #expect(try await admin.receive("value")["value"]?.objectValue != nil)
        }
    }

    @Test func secondHelloIsABadRequestAndKeepsTheSession() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"hello"}"#)
            #expect(try await client.receive("error")["code"] == "bad_request")
            try await client.send(#"{"type":"get","id":"g1","path":""}"#)
            _ = try await client.receive("value")
        }
    }

    @Test func idleConnectionIsClosedAfterTheTimeout() async throws {
        var configuration = TestServer.configuration
        configuration.session.idleTimeout = .milliseconds(300)
        try await TestServer.with(configuration) { server in
            // Silent from the start (no hello): the server gives up on it.
            let client = try await ProtocolClient.connect(server.url)
            _ = try await client.drainUntilClosed()
            #expect(client.closeCode == 1001)
        }
    }

    @Test func pingsKeepAQuietConnectionOpen() async throws {
        var configuration = TestServer.configuration
        configuration.session.pingInterval = .milliseconds(50)
        configuration.session.idleTimeout = .milliseconds(1_000)
        try await TestServer.with(configuration) { server in
            let client = try await ProtocolClient.joined(server.url)
            // Quiet for longer than the idle timeout: the client's pongs count as traffic.
            try await Task.sleep(for: .milliseconds(1_500))
            try await client.send(#"{"type":"get","id":"g1","path":""}"#)
            _ = try await client.receive("value")
        }
    }
}
