import BoardApp
import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncServer
import StateSyncTestSupport
import Testing

@testable import StateSyncClient

/// A file outbox keeps unanswered dispatches across clients (processes):
/// the next client with the file sends them again with their ids, and the
/// server applies each exactly once. Three minutes: with five seconds of
/// latency on every answer, the first test waits out about seven of them
/// (about 35 s alone, more inside the whole suite).
@Suite(.timeLimit(.minutes(3)))
struct OutboxEndToEndTests {
    static func outboxURL() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "statesync-outbox-\(UUID().uuidString).json")
    }

    @Test func aDispatchAppliedButNotAckedIsResentByTheNextClientAndAppliedOnce() async throws {
        let outbox = Self.outboxURL()
        defer { try? FileManager.default.removeItem(at: outbox) }   // a test file: gone already is fine
        var configuration = TestServer.configuration
        // The first client must close between the server applying the action and its ack:
        // five seconds, however slowly a loaded machine answers the check in between.
        configuration.injectedLatency = .seconds(5)
        try await TestServer.with(configuration) { server in
            var clientConfiguration = ClientFixtures.configuration(server.url)
            clientConfiguration.outbox = .file(outbox)
            let first = StateSyncClient(configuration: clientConfiguration)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await first.run() }
                try await first.waitUntilOnline()
                group.addTask { _ = try? await first.dispatch(BoardAction.addTodo(title: "Milk")) }   // closed before its ack
                // Applied by the server; its ack is five seconds away.
                #expect(try await eventually { try await HTTPGet.get(port: server.port, path: "/api/state?path=/todos").body.contains("Milk") })
                await first.close()
                try await group.waitForAll()
            }
            let listed = try #require(try OutboxFile(url: outbox).load())
            #expect(listed.dispatches.map(\.action) == [BoardAction.addTodo(title: "Milk").wireValue])
            #expect(listed.clientID == first.clientID)

            // A new client (another process, in real life) with the same file.
            let second = StateSyncClient(configuration: clientConfiguration)
            #expect(second.clientID == first.clientID)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await second.run() }
                try await second.waitUntilOnline()
                let board = try await second.mirror(Board.self, optimistic: true)
                #expect(board.state.todos.map(\.title) == ["Milk"])
                #expect(try await eventually { board.view.pendingCount == 0 })
                #expect(board.state.todos.map(\.title) == ["Milk"])
                #expect(try OutboxFile(url: outbox).load()?.dispatches == [])
                await second.close()
                try await group.waitForAll()
            }
            #expect(try await HTTPGet.get(port: server.port, path: "/api/state?path=/todos").body.components(separatedBy: "Milk").count == 2)
        }
    }

    @Test func anOutboxedDispatchToAStoreIsSentAgainToThatStore() async throws {
        let outbox = Self.outboxURL()
        defer { try? FileManager.default.removeItem(at: outbox) }   // a test file: gone already is fine
        var offline = StateSyncClientConfiguration(url: "ws://127.0.0.1:1/sync")
        offline.outbox = .file(outbox)
        let first = StateSyncClient(configuration: offline)   // never run: the dispatch is only written down
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await first.store("team-42").dispatch(ClientFixtures.increment("hits", by: 4)) }   // fails with closed
            // However loaded the machine (in CI this took more than the default 10 s once).
            #expect(try await eventually(within: .seconds(40)) { (try? OutboxFile(url: outbox).load())??.dispatches.count == 1 })
            await first.close()
            try await group.waitForAll()
        }
        #expect(try OutboxFile(url: outbox).load()?.dispatches.map(\.store.rawValue) == ["team-42"])

        try await TestServer.with { server in
            var configuration = ClientFixtures.configuration(server.url)
            configuration.outbox = .file(outbox)
            try await StateSyncClient.withConnection(configuration) { client in
                let team = try client.store("team-42")
                #expect(try await eventually { try await team.get("/counters/hits").value == 4 })
                #expect(try await client.get("/counters/hits").value == .null)
                #expect(try await eventually { try OutboxFile(url: outbox).load()?.dispatches == [] })
            }
        }
    }

    @Test func anUnreadableOutboxStopsTheClientWithItsPath() async throws {
        let outbox = Self.outboxURL()
        defer { try? FileManager.default.removeItem(at: outbox) }   // a test file: gone already is fine
        try Data("not json".utf8).write(to: outbox)
        var configuration = StateSyncClientConfiguration(url: "ws://127.0.0.1:1/sync")
        configuration.outbox = .file(outbox)
        let error = await #expect(throws: StateSyncClientError.self) {
            try await StateSyncClient(configuration: configuration).run()
        }
        #expect(error?.description.contains(outbox.path) == true)
    }

    @Test func thePendingDispatchesHaveABound() async throws {
        var configuration = StateSyncClientConfiguration(url: "ws://127.0.0.1:1/sync")
        configuration.maxPendingDispatches = 2
        let client = StateSyncClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 { group.addTask { _ = try? await client.dispatch(ClientFixtures.increment("hits")) } }   // fail with closed at the end
            #expect(try await eventually { await client.pending.dispatches.count == 2 })
            await #expect(throws: StateSyncClientError.tooManyPendingDispatches(limit: 2)) {
                try await client.dispatch(ClientFixtures.increment("hits"))
            }
            await client.close()
            try await group.waitForAll()
        }
    }
}
