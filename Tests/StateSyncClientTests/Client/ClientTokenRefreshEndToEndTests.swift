import StateSyncClient
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

/// ``StateSyncClient/refreshToken(_:)`` against a real server that accepts JWTs.
@Suite(.timeLimit(.minutes(1)))
struct ClientTokenRefreshEndToEndTests {
    @Test func aRefreshedTokenKeepsTheMirrorLiveAndARefusedOneThrows() async throws {
        var configuration = TestServer.configuration
        configuration.authentication = SessionAuthentication(
            tokens: ["root": .admin], jwt: JWTAuthenticator(key: try JWTKey.parse(TestJWT.secret, source: "test")))
        try await TestServer.with(configuration) { server in
            var clientConfiguration = ClientFixtures.configuration(server.url)
            clientConfiguration.token = try await TestJWT.hs256(TestClaims(role: "writer", lifetime: 600))
            try await StateSyncClient.withConnection(clientConfiguration) { client in
                try await client.subscribe("/counters")
                #expect(client.status.role == .writer)

                try await client.refreshToken(try await TestJWT.hs256(TestClaims(role: "reader", lifetime: 3_600)))
                #expect(client.status.role == .reader)
                // Still subscribed: another client's change reaches the mirror.
                let root = try await ProtocolClient.joined(server.url, token: "root")
                try await root.send(#"{"type":"dispatch","id":"r1","action":{"type":"increment","counter":"hits","by":2}}"#)
                _ = try await root.receive("ack")
                for await counters in try await client.changes(at: "/counters") where counters.value == ["hits": 2] { break }
                // A reader now: the server refuses its dispatch.
                await #expect(throws: DispatchRejection.self) { try await client.dispatch(ClientFixtures.increment("hits")) }

                let forged = try await TestJWT.hs256(TestClaims(role: "admin"), secret: String(repeating: "q", count: 40))
                let error = await #expect(throws: StateSyncClientError.self) { try await client.refreshToken(forged) }
                #expect(error?.code == .unauthorized)
            }
        }
    }
}
