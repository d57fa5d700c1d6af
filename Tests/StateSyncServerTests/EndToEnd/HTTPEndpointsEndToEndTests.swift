import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import Testing

/// `GET /health`, `GET /metrics` and `/echo` on the server's port.
@Suite(.timeLimit(.minutes(1)))
struct HTTPEndpointsEndToEndTests {
    @Test func healthReportsStatusRevEpochAndConnections() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits"}}"#)
            let ack = try await client.receive("ack")
            let (status, body) = try await HTTPGet.get(port: server.port, path: "/health")
            #expect(status == 200)
            let health = try JSONParser().parse(Array(body.utf8))
            #expect(health["status"] == "ok")
            #expect(try #require(health["rev"]?.int64Value) >= (try #require(ack["rev"]?.int64Value)))
            #expect(health["epoch"]?.stringValue?.isEmpty == false)
            #expect(health["connections"] == 1)
        }
    }

    @Test func metricsExportTheDocumentedNames() async throws {
        try await TestServer.with { server in
            let client = try await ProtocolClient.joined(server.url)
            try await client.send(#"{"type":"subscribe","id":"s1","path":"/counters"}"#)
            _ = try await client.receive("snapshot")
            try await client.send(#"{"type":"dispatch","id":"a1","action":{"type":"increment","counter":"hits"}}"#)
            _ = try await client.receive("patch")
            _ = try await client.receive("ack")
            try await client.send(#"{"type":"dispatch","id":"a2","action":{"type":"toggleTodo","id":"nope"}}"#)
            _ = try await client.receive("reject")
            let (status, body) = try await HTTPGet.get(port: server.port, path: "/metrics")
            #expect(status == 200)
            let lines = Set(body.split(separator: "\n").map(String.init))
            #expect(lines.contains("statesync_connections 1.0"))
            #expect(lines.contains("statesync_actions_accepted_total 1"))
            #expect(lines.contains("statesync_actions_rejected_total 1"))
            #expect(lines.contains("statesync_patches_sent_total 1"))
            #expect(lines.contains("statesync_dispatch_ack_seconds_count 2"))
            #expect(lines.contains("statesync_slow_consumers_total 0"))
            #expect(lines.contains { $0.hasPrefix("statesync_bytes_sent_total ") && $0 != "statesync_bytes_sent_total 0" })
        }
    }

    @Test(arguments: [false, true])
    func echoIsServedOnlyWhenEnabled(enabled: Bool) async throws {
        var configuration = TestServer.configuration
        configuration.echo = enabled
        try await TestServer.with(configuration) { server in
            let url = "ws://127.0.0.1:\(server.port)/echo"
            if enabled {
                let client = try await ProtocolClient.connect(url, subprotocols: [])
                try await client.send(#"{"echo":true}"#)
                #expect(try await client.receive() == ["echo": true])
            } else {
                await #expect(throws: (any Error).self) { _ = try await ProtocolClient.connect(url, subprotocols: []) }
            }
        }
    }
}
