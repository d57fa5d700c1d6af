import BoardApp
import StateSyncClient
import StateSyncCore
import StateSyncPostgres
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Two in-process nodes of different app schema versions share a store
/// through PostgreSQL, as during a rolling upgrade: once the newer node
/// writes an entry of its version, the older node never reads it as its
/// own. It stops serving the store (`/health` 503 naming both versions),
/// closes its sessions with 1013 and refuses new ones `schema_too_new`,
/// and a client given both nodes moves to the newer one and goes on.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct ClusterSchemaVersionTests {
    /// An in-process node on `postgres`, forwarding its sessions' dispatches
    /// to the writer or writing them itself.
    static func configuration(_ postgres: TestPostgres, forwarding: Bool) throws -> StateSyncServerConfiguration {
        var configuration = TestServer.configuration
        configuration.forwardsDispatches = forwarding
        let location = try PostgresLocation(url: postgres.url)
        configuration.storage = .journals("postgres") { logger in
            try await PostgresStores.open(location: location, configuration: PostgresStores.Configuration(), logger: logger)
        }
        return configuration
    }

    static func increment(_ id: String) -> String {
        #"{"type":"dispatch","id":"\#(id)","action":{"type":"increment","counter":"hits"}}"#
    }

    /// With forwarding (the older node, opened first, writes `main`: it
    /// refuses the newer node's forwarded action unapplied, `schema_too_new`,
    /// and the newer node writes it itself) and without.
    @Test(arguments: [true, false])
    func anOlderNodeStopsServingAStoreANewerNodeWroteAndItsClientsMoveOn(forwarding: Bool) async throws {
        try await TestPostgres.with { postgres in
            let configuration = try Self.configuration(postgres, forwarding: forwarding)
            try await TestServer.with(configuration, app: Board.self) { old in
                let stayer = try await ProtocolClient.joined(old.url, clientID: "on-old")
                try await stayer.send(Self.increment("o1"))
                _ = try await stayer.receive("ack")
                var newer = configuration
                newer.minimumClientSchema = Board.schemaVersion   // the board's clients still read the state (same shape)
                try await TestServer.with(newer, app: BoardNext.self) { new in
                    var clientConfiguration = StateSyncClientConfiguration(urls: [old.url, new.url])
                    clientConfiguration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
                    clientConfiguration.schemaVersion = Board.schemaVersion
                    let mover = StateSyncClient(configuration: clientConfiguration)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { try await mover.run() }
                        try await mover.waitUntilOnline()

                        let writer = try await ProtocolClient.connect(new.url)
                        try await writer.send(#"{"type":"hello","clientId":"on-new","schemaVersion":\#(BoardNext.schemaVersion)}"#)
                        _ = try await writer.receive("welcome")
                        try await writer.send(Self.increment("n1"))
                        _ = try await writer.receive("ack")

                        // The older node read an entry of the newer version: its sessions are sent elsewhere.
                        _ = try await stayer.drainUntilClosed()
                        #expect(stayer.closeCode == 1013)
                        #expect(stayer.closeReason?.contains("is at app schema version \(BoardNext.schemaVersion); this node serves version \(Board.schemaVersion)") == true,
                                "\(stayer.closeReason ?? "")")
                        let health = try await HTTPGet.get(port: old.port, path: "/health")
                        #expect(health.status == 503, "\(health.body)")
                        #expect(health.body.contains("app schema version \(BoardNext.schemaVersion)")
                                && health.body.contains("newer than this node's \(Board.schemaVersion)"), "\(health.body)")

                        let late = try await ProtocolClient.connect(old.url)
                        try await late.send(#"{"type":"hello"}"#)
                        let refused = try await late.receive("error")
                        #expect(refused["code"] == "schema_too_new", "\(refused)")
                        _ = try await late.drainUntilClosed()
                        #expect(late.closeCode == 1013)

                        // The client given both nodes goes on at the newer one; its action of the board's version is upcast there.
                        let rev = try await mover.dispatch(["type": "increment", "counter": "hits"])
                        #expect(rev > 0)
                        // And the newer node's own clients go on too, whoever held the lease.
                        try await writer.send(Self.increment("n2"))
                        _ = try await writer.receive("ack")
                        await mover.close()
                        try await group.waitForAll()
                    }
                    let value = try await HTTPGet.get(port: new.port, path: "/api/state?path=/counters/hits")
                    #expect(value.body.contains(#""value":4"#), "\(value.body)")
                }
            }
        }
    }
}
