import Foundation
import StateSyncClient
import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import TestProcessSupport
import Testing

/// Faults in a cluster of real `statesync serve --postgres` nodes: a lost
/// LISTEN connection, a paused node, a killed node, PostgreSQL restarted. After each, every
/// acknowledged action is in the journal once, the revisions are
/// contiguous, and every node serves the same state bytes.
@Suite(.timeLimit(.minutes(3)), .serialized)
struct PostgresClusterFaultTests {
    @Test func aNodeWhoseListenConnectionIsTerminatedStillConvergesByPolling() async throws {
        try await TestPostgres.with { postgres in
            let a = try await ClusterNode.start(postgres)
            let b = try await ClusterNode.start(postgres, ["--poll-interval", "0.2"])
            let terminated = try await PostgresQueries.text("""
                SELECT count(pg_terminate_backend(pid))::text FROM pg_stat_activity WHERE application_name = 'statesync-listen'
                """, on: postgres)
            #expect(terminated == "2", "each node has one LISTEN connection, named for this")
            let writer = try await ProtocolClient.joined(a.url, clientID: "writer-a")
            for index in 0..<3 {
                try await writer.send(.object(["type": "dispatch", "id": .string("a\(index)"),
                                               "action": ["type": "increment", "counter": "hits"]]))
                #expect(try await writer.receive("ack")["type"] == "ack")
            }
            let bodies = try await ClusterChecks.converged([a, b], on: postgres)
            #expect(bodies[0] == bodies[1], "A: \(bodies[0])\nB: \(bodies[1])")
            #expect(bodies[0].contains(#""hits":3"#), "\(bodies[0])")
            try await ClusterChecks.expectContiguous(on: postgres)
            for node in [a, b] { await node.process.stop() }
        }
    }

    @Test func aNodePausedWhileOthersWriteCatchesUpAndItsQueuedWritesLandWithoutForking() async throws {
        try await TestPostgres.with { postgres in
            var nodes: [ClusterNode] = []
            for _ in 0..<3 { nodes.append(try await ClusterNode.start(postgres)) }
            let paused = nodes[2]
            let pausedClient = try await ProtocolClient.joined(paused.url, clientID: "paused")
            paused.process.send(SIGSTOP)
            let pausedCount = 20
            // Queued in the paused node's socket: it reads them with a stale view of the head.
            for index in 0..<pausedCount {
                try await pausedClient.send(.object(["type": "dispatch", "id": .string("x\(index)"),
                                                     "action": ["type": "increment", "counter": "hits"]]))
            }
            let others = try await withThrowingTaskGroup(of: [String: JSONValue].self) { group in
                for index in 0..<2 {
                    let url = nodes[index].url
                    group.addTask { try await PostgresFollowerTests.dispatchIncrements(count: 50, clientID: "w\(index)", to: url) }
                }
                // The pause lasts while the others write (5 s in all).
                try await Task.sleep(for: .seconds(5))
                paused.process.send(SIGCONT)
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for answers in others { #expect(answers.values.allSatisfy { $0["type"] == "ack" }, "\(answers)") }
            var acked = 0
            while acked < pausedCount {
                let message = try await pausedClient.receive()
                if message["type"] == "ack" { acked += 1 }
                #expect(message["type"] != "reject", "\(message)")
            }
            let stored = try await PostgresQueries.actionIDs(of: "paused", on: postgres)
            #expect(stored == (0..<pausedCount).map { "x\($0)" }, "stored in this order: \(stored)")
            try await ClusterChecks.expectContiguous(on: postgres)
            let bodies = try await ClusterChecks.converged(nodes, on: postgres)
            #expect(Set(bodies).count == 1, "\(bodies)")
            #expect(bodies[0].contains(#""hits":\#(pausedCount + 100)"#), "\(bodies[0])")
            for node in nodes { await node.process.stop() }
        }
    }

    @Test func clientsOfAKilledNodeFailOverAndEveryAckedActionIsStoredOnce() async throws {
        try await TestPostgres.with { postgres in
            var nodes: [ClusterNode] = []
            for _ in 0..<3 { nodes.append(try await ClusterNode.start(postgres)) }
            var configuration = StateSyncClientConfiguration(urls: nodes.map(\.url))
            configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
            let clientID = configuration.clientID
            let client = StateSyncClient(configuration: configuration)
            let total = 100
            let revisions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
                group.addTask { try await client.run(); return [] }
                try await client.waitUntilOnline()
                var revisions: [UInt64] = []
                for _ in 0..<30 { revisions.append(try await client.dispatch(["type": "increment", "counter": "hits"])) }
                // The rest in flight at once, and the node they went to is killed among them.
                let rest = try await withThrowingTaskGroup(of: UInt64.self) { stream in
                    for _ in 30..<total { stream.addTask { try await client.dispatch(["type": "increment", "counter": "hits"]) } }
                    nodes[0].process.send(SIGKILL)
                    return try await stream.reduce(into: [UInt64]()) { $0.append($1) }
                }
                await client.close()
                try await group.waitForAll()
                return revisions + rest
            }
            _ = await nodes[0].process.waitForExit()
            #expect(Set(revisions).count == total, "each dispatch acked at its own revision")
            let ids = try await PostgresQueries.actionIDs(of: clientID, on: postgres)
            #expect(ids.count == total && Set(ids).count == total, "every acked action stored once: \(ids.count) rows, \(Set(ids).count) ids")
            try await ClusterChecks.expectContiguous(on: postgres)
            let bodies = try await ClusterChecks.converged(Array(nodes[1...]), on: postgres)
            #expect(bodies[0] == bodies[1], "B: \(bodies[0])\nC: \(bodies[1])")
            #expect(bodies[0].contains(#""hits":\#(total)"#), "\(bodies[0])")
            for node in nodes[1...] { await node.process.stop() }
        }
    }

    /// With forwarding (the default) and without: a writer that lost the lease with forwarded
    /// dispatches in a refused batch writes them itself, never sends them
    /// back to the node they came from (which once took them for its own
    /// session's and left that session's client waiting forever).
    @Test(arguments: [["--no-forwarding"], []])
    func aPostgresRestartedDuringWritesLosesNoAckedActionAndTheNodesConverge(options: [String]) async throws {
        try await TestPostgres.with { postgres in
            var nodes: [ClusterNode] = []
            for _ in 0..<3 { nodes.append(try await ClusterNode.start(postgres, options)) }
            // One client a node (each names all three, its own first), every one dispatching while PostgreSQL crashes.
            var clients: [StateSyncClient] = []
            for index in 0..<3 {
                let urls = (0..<3).map { nodes[($0 + index) % 3].url }
                var configuration = StateSyncClientConfiguration(urls: urls)
                configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
                clients.append(StateSyncClient(configuration: configuration))
            }
            let perClient = 40
            let outcomes = try await withThrowingTaskGroup(of: [Result<UInt64, DispatchRejection>].self) { group in
                for client in clients { group.addTask { try await client.run(); return [] } }
                for client in clients { try await client.waitUntilOnline() }
                let outcomes = try await withThrowingTaskGroup(of: Result<UInt64, DispatchRejection>.self) { stream in
                    func dispatchHalf() {
                        for client in clients {
                            for _ in 0..<perClient / 2 {
                                stream.addTask {
                                    do { return .success(try await client.dispatch(["type": "increment", "counter": "hits"])) }
                                    catch let rejection as DispatchRejection { return .failure(rejection) }
                                }
                            }
                        }
                    }
                    // Half before the crash (some in flight as it happens), half while PostgreSQL is down.
                    dispatchHalf()
                    try await postgres.crash()
                    dispatchHalf()
                    // Down for a while (the nodes answer 503 and refuse new pairs `unavailable`), then back.
                    try await Task.sleep(for: .seconds(1))
                    try await postgres.restart()
                    return try await stream.reduce(into: []) { $0.append($1) }
                }
                for client in clients { await client.close() }
                try await group.waitForAll()
                return [outcomes]
            }.flatMap { $0 }
            let revisions = outcomes.compactMap { try? $0.get() }
            let rejections = outcomes.compactMap { outcome -> DispatchRejection? in
                if case .failure(let rejection) = outcome { return rejection }
                return nil
            }
            #expect(outcomes.count == 3 * perClient, "\(revisions.count) acked, \(rejections.count) rejected")
            #expect(rejections.allSatisfy { $0.code.rawValue == "unavailable" }, "\(rejections)")
            #expect(Set(revisions).count == revisions.count, "each acked action at its own revision")
            var stored = 0
            for client in clients {
                let ids = try await PostgresQueries.actionIDs(of: client.configuration.clientID, on: postgres)
                #expect(Set(ids).count == ids.count, "a pair stored twice: \(ids)")
                stored += ids.count
            }
            // Acked actions are stored; a rejected one is not (every stored one is an increment).
            #expect(stored == revisions.count, "\(stored) stored, \(revisions.count) acked, \(rejections.count) rejected")
            try await ClusterChecks.expectContiguous(on: postgres)
            let bodies = try await ClusterChecks.converged(nodes, on: postgres)
            #expect(Set(bodies).count == 1, "\(bodies)")
            // No counter at all when every dispatch was refused while PostgreSQL was down.
            let hits = revisions.isEmpty ? #""counters":{}"# : #""hits":\#(revisions.count)"#
            #expect(bodies[0].contains(hits), "\(bodies[0])")
            for node in nodes { await node.process.stop() }
        }
    }
}
