import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

/// Per-store access with JWTs over real sockets: what a token grants in
/// each store, refreshing it in place, and its expiry.
@Suite(.timeLimit(.minutes(1)))
struct JWTAccessEndToEndTests {
    /// The test server, accepting JWTs signed with ``TestJWT/secret`` and the static admin token `root`.
    /// It judges `exp` a minute in the past, so that a token of a short life
    /// is still accepted however late a loaded machine handles its `hello`,
    /// while the session ends at the token's real expiry.
    private static var configuration: StateSyncServerConfiguration {
        var configuration = TestServer.configuration
        configuration.authentication = SessionAuthentication(
            tokens: ["root": .admin],
            jwt: JWTAuthenticator(key: try! JWTKey.parse(TestJWT.secret, source: "test"), now: { Date().addingTimeInterval(-60) }))
        return configuration
    }

    @Test func aTokenGrantsItsRolesPerStoreAndNothingElse() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await TestJWT.hs256(TestClaims(stores: ["team-42-*": "writer", "lobby": "reader"]))
            let alice = try await ProtocolClient.joined(server.url, token: token, name: "alice")
            #expect(alice.welcome["role"] == nil, "no role in main")

            try await alice.send(#"{"type":"dispatch","store":"team-42-board","id":"a1","action":{"type":"increment","counter":"n","by":2}}"#)
            #expect(try await alice.receive("ack")["store"] == "team-42-board")

            try await alice.send(#"{"type":"dispatch","store":"lobby","id":"a2","action":{"type":"increment","counter":"n","by":1}}"#)
            let reject = try await alice.receive("reject")
            #expect(reject["code"] == "forbidden")
            #expect(reject["store"] == "lobby")

            for store in ["main", "team-43-board"] {
                try await alice.send(.object(["type": "get", "store": .string(store), "id": "g", "path": ""]))
                let error = try await alice.receive("error")
                #expect(error["code"] == "forbidden")
                #expect(error["message"] == .string("this session's token grants no access to the store \"\(store)\""))
            }

            // Not in main: main's presence does not show the session.
            let root = try await ProtocolClient.joined(server.url, token: "root")
            try await root.send(#"{"type":"get","id":"p","path":"/presence"}"#)
            let presence = try await root.receive("value")
            #expect(!"\(presence)".contains("alice"), "\(presence)")
        }
    }

    @Test func aRefreshedTokenKeepsTheSubscriptionsItStillGrantsAndEndsTheOthers() async throws {
        try await TestServer.with(Self.configuration) { server in
            let root = try await ProtocolClient.joined(server.url, token: "root")
            // A reader opens only stores that exist: the admin makes the lobby.
            try await root.send(#"{"type":"dispatch","store":"lobby","id":"r0","action":{"type":"increment","counter":"n","by":1}}"#)
            _ = try await root.receive("ack")
            let first = try await TestJWT.hs256(TestClaims(stores: ["team-42-*": "writer", "lobby": "reader"]))
            let alice = try await ProtocolClient.joined(server.url, token: first)
            try await alice.send(#"{"type":"subscribe","store":"team-42-board","id":"s1","path":"/counters"}"#)
            _ = try await alice.receive("snapshot")
            try await alice.send(#"{"type":"subscribe","store":"lobby","id":"s2","path":"/counters"}"#)
            _ = try await alice.receive("snapshot")

            let second = try await TestJWT.hs256(TestClaims(stores: ["team-42-board": "reader"], lifetime: 7_200))
            try await alice.send(.object(["type": "auth", "id": "t1", "token": .string(second)]))
            var answers: [JSONValue] = []
            while !answers.contains(where: { $0["type"] == "authorized" }) || !answers.contains(where: { $0["type"] == "unsubscribed" }) {
                answers.append(try await alice.receive())
            }
            let authorized = try #require(answers.first { $0["type"] == "authorized" })
            #expect(authorized["id"] == "t1")
            #expect(authorized["role"] == nil)
            #expect((authorized["expires"]?.int64Value ?? 0) > Int64(Date().timeIntervalSince1970) + 3_600)
            let ended = try #require(answers.first { $0["type"] == "unsubscribed" })
            #expect(ended["store"] == "lobby")
            #expect(ended["id"] == "s2")

            // The kept subscription still gets the store's changes, made by someone else.
            try await root.send(#"{"type":"dispatch","store":"team-42-board","id":"r1","action":{"type":"increment","counter":"n","by":5}}"#)
            let patch = try await alice.receive("patch")
            #expect(patch["store"] == "team-42-board")
            #expect(patch["id"] == "s1")
            // Now a reader there: its dispatch is refused by the engine too.
            try await alice.send(#"{"type":"dispatch","store":"team-42-board","id":"a1","action":{"type":"increment","counter":"n","by":1}}"#)
            #expect(try await alice.receive("reject")["code"] == "forbidden")
        }
    }

    @Test func aRefusedRefreshLeavesTheSessionAsItWas() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await TestJWT.hs256(TestClaims(role: "writer"))
            let alice = try await ProtocolClient.joined(server.url, token: token)
            #expect(alice.welcome["role"] == "writer")
            let forged = try await TestJWT.hs256(TestClaims(role: "admin"), secret: String(repeating: "y", count: 40))
            try await alice.send(.object(["type": "auth", "id": "t1", "token": .string(forged)]))
            let error = try await alice.receive("error")
            #expect(error["id"] == "t1")
            #expect(error["code"] == "unauthorized")
            #expect(error["message"] == "the token was refused: its signature does not verify with the server's key")
            try await alice.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"n","by":1}}"#)
            #expect(try await alice.receive("ack")["id"] == "a1")
        }
    }

    @Test func anExpiredTokenClosesTheSessionSayingSo() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await TestJWT.hs256(TestClaims(role: "writer", lifetime: 2))
            let alice = try await ProtocolClient.joined(server.url, token: token)
            let messages = try await alice.drainUntilClosed()
            let error = try #require(messages.last)
            #expect(error["code"] == "unauthorized")
            #expect(error["message"]?.stringValue?.contains("expired") == true)
            #expect(alice.closeCode == 1008)
            #expect(alice.closeReason == "token expired")
        }
    }

    @Test func aRefreshBeforeExpiryKeepsTheSessionOpen() async throws {
        try await TestServer.with(Self.configuration) { server in
            let short = try await TestJWT.hs256(TestClaims(role: "writer", lifetime: 15))
            let alice = try await ProtocolClient.joined(server.url, token: short)
            let long = try await TestJWT.hs256(TestClaims(role: "writer", lifetime: 3_600))
            try await alice.send(.object(["type": "auth", "id": "t1", "token": .string(long)]))
            #expect(try await alice.receive("authorized")["id"] == "t1")
            // Past the first token's expiry (3 s on the server's clock), the session still answers.
            // Time itself is the input here: the wall clock must pass the first token's expiry.
            try await Task.sleep(for: .seconds(16))
            try await alice.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"n","by":1}}"#)
            #expect(try await alice.receive("ack")["id"] == "a1")
            #expect(alice.closeCode == nil)
        }
    }

    @Test func aTokenWithAnotherKeyIsRefusedAtHello() async throws {
        try await TestServer.with(Self.configuration) { server in
            let client = try await ProtocolClient.connect(server.url)
            let forged = try await TestJWT.hs256(TestClaims(role: "admin"), secret: String(repeating: "z", count: 40))
            try await client.send(.object(["type": "hello", "token": .string(forged)]))
            let messages = try await client.drainUntilClosed()
            #expect(messages.first?["code"] == "unauthorized")
            #expect(client.closeCode == 1008)
        }
    }

    @Test func aWatchEndsWhenItsTokenExpires() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await TestJWT.hs256(TestClaims(role: "reader", lifetime: 2))
            // curl returns once the server ends the stream (it would wait 20 s otherwise, and fail).
            let watch = try await Curl.run(port: server.port, "/api/watch?path=/counters", ["-N", "-H", "Authorization: Bearer \(token)"])
            #expect(watch.status == 200)
            #expect(watch.body.contains("event: snapshot"))
            #expect(watch.body.contains("event: error"), "\(watch.body)")
            #expect(watch.body.contains("the token was refused: it expired at"))
        }
    }

    @Test func theHTTPAPIChecksTheRoleInTheStoreItNames() async throws {
        try await TestServer.with(Self.configuration) { server in
            let token = try await TestJWT.hs256(TestClaims(stores: ["team-42-*": "writer", "lobby": "reader"]))
            let bearer = ["-H", "Authorization: Bearer \(token)"]
            let body = #"{"type":"increment","counter":"n","by":1}"#
            let header = ["Authorization: Bearer \(token)"]
            #expect(try await Curl.post(port: server.port, "/api/stores/team-42-x/dispatch", body, headers: header).status == 200)
            #expect(try await Curl.post(port: server.port, "/api/stores/lobby/dispatch", body, headers: header).status == 403)
            let main = try await Curl.run(port: server.port, "/api/state", bearer)
            #expect(main.status == 403)
            #expect(try main.json["code"] == "forbidden")
            #expect(try await Curl.run(port: server.port, "/api/stores/team-42-x/state?path=/counters/n", bearer).json["value"] == 1)
            // Deleting a store needs the admin role there.
            #expect(try await Curl.run(port: server.port, "/api/stores/team-42-x", ["-X", "DELETE"] + bearer).status == 403)
        }
    }
}
