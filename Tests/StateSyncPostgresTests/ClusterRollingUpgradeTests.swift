import BoardApp
import Synchronization
import StateSyncClient
import StateSyncCore
import StateSyncServer
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// A rolling upgrade of a three-node cluster (in-process nodes on one
/// PostgreSQL, forwarding on) from the board to its next app schema
/// version (``BoardNext``), one node at a time, while a writer on each node dispatches
/// without pause: every acknowledged action is stored once and nothing
/// else is, the old nodes drop out as the new ones write, and a client of
/// the new version, once on a new node, is never dropped.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct ClusterRollingUpgradeTests {
    /// A client that increments its own counter until stopped, counting acks.
    final class Writer: Sendable {
        let client: StateSyncClient
        private let acked = Mutex((count: 0, stopped: false, finished: false))
        private let rejections = Mutex<[String]>([])

        init(urls: [String], clientID: String, schemaVersion: Int) {
            var configuration = StateSyncClientConfiguration(urls: urls)
            configuration.clientID = clientID
            configuration.schemaVersion = schemaVersion
            configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(300))
            client = StateSyncClient(configuration: configuration)
        }

        var acks: Int { acked.withLock { $0.count } }
        /// Whether ``write()`` returned: its last dispatch was answered.
        var finished: Bool { acked.withLock { $0.finished } }
        var refused: [String] { rejections.withLock { $0 } }

        func stop() { acked.withLock { $0.stopped = true } }

        /// Dispatches one at a time until ``stop()``.
        func write() async {
            defer { acked.withLock { $0.finished = true } }
            while !acked.withLock({ $0.stopped }) {
                do {
                    try await client.dispatch(["type": "increment", "counter": .string(client.clientID)])
                    acked.withLock { $0.count += 1 }
                } catch let rejection as DispatchRejection {
                    rejections.withLock { $0.append("\(rejection)") }
                } catch {
                    return   // the client closed
                }
            }
        }
    }

    @Test func threeNodesUpgradedOneByOneUnderWritesLoseNoAckedActionAndDropNoNewClient() async throws {
        try await TestPostgres.with { postgres in
            let base = try ClusterSchemaVersionTests.configuration(postgres, forwarding: true)
            var nodes: [TestServer.Running] = []
            for _ in 0..<3 { nodes.append(try await TestServer.start(base, app: Board.self)) }
            let ports = nodes.map(\.server.port)
            let urls = ports.map { "ws://127.0.0.1:\($0)/sync" }
            let writers = (0..<3).map { index in
                Writer(urls: (0..<3).map { urls[($0 + index) % 3] }, clientID: "writer-\(index)", schemaVersion: Board.schemaVersion)
            }
            var newClient: StateSyncClient?
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in writers {
                    group.addTask { try await writer.client.run() }
                    group.addTask { await writer.write() }
                }
                for index in 0..<3 {
                    try await Self.progress(of: writers)
                    try await nodes[index].stop()
                    var upgraded = base
                    upgraded.port = ports[index]
                    upgraded.minimumClientSchema = Board.schemaVersion   // the writers speak the board's version, whose actions still apply
                    nodes[index] = try await TestServer.start(upgraded, app: BoardNext.self)
                    if index == 0 {
                        var configuration = StateSyncClientConfiguration(urls: [urls[0]])
                        configuration.schemaVersion = BoardNext.schemaVersion
                        let client = StateSyncClient(configuration: configuration)
                        group.addTask { try await client.run() }
                        try await client.waitUntilOnline()
                        newClient = client
                    }
                }
                try await Self.progress(of: writers)
                for writer in writers { writer.stop() }
                // Each writer's last dispatch is answered before it stops: nothing is left in flight.
                try await Self.until { writers.allSatisfy(\.finished) }
                let client = try #require(newClient)
                #expect(try await client.dispatch(["type": "increment", "counter": "new"]) > 0)
                #expect(client.status.connections == 1, "the client of the new version was never dropped")
                for writer in writers { await writer.client.close() }
                await client.close()
                group.cancelAll()
            }
            for (index, writer) in writers.enumerated() {
                let ids = try await PostgresQueries.actionIDs(of: "writer-\(index)", on: postgres)
                #expect(Set(ids).count == ids.count, "a pair stored twice: \(ids.count) rows")
                #expect(ids.count == writer.acks, "writer-\(index): \(ids.count) stored, \(writer.acks) acked, refused \(writer.refused)")
                #expect(writer.refused.isEmpty, "writer-\(index) was refused: \(writer.refused)")
            }
            for node in nodes {
                let health = try await HTTPGet.get(port: node.server.port, path: "/health")
                #expect(health.status == 200, "\(health.body)")
                try await node.stop()
            }
        }
    }

    /// Waits until every writer was acknowledged 10 more times.
    static func progress(of writers: [Writer]) async throws {
        let start = writers.map(\.acks)
        try await until { zip(writers, start).allSatisfy { $0.acks >= $1 + 10 } }
    }

    /// Polls `condition` every 20 ms for up to 30 s (other nodes' commits cannot be awaited here).
    static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "no progress in 30 s")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
