import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import TestProcessSupport
import Testing

@testable import StateSyncClient

/// Several stores of the real `statesync` binary across restarts on the same
/// port and data directory: each store resumes on its own, and one whose
/// history was replaced (a new epoch) starts over alone.
@Suite(.timeLimit(.minutes(2))) struct ClientStoresReconnectTests {
    @Test func aReconnectResumesEveryStore() async throws {
        let directory = Self.temporaryDirectory("stores-resume")
        defer { try? FileManager.default.removeItem(at: directory) }   // best-effort cleanup of a temp dir
        let first = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory.path])
        let port = try #require(try await first.waitForPort(), "serve did not start: \(first.standardError)")
        let url = "ws://127.0.0.1:\(port)/sync"
        let client = StateSyncClient(configuration: ClientFixtures.configuration(url))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.waitUntilOnline()
            let red = try client.store("red"), blue = try client.store("blue")
            var mainCounters = try await client.changes(at: "/counters").makeAsyncIterator()
            var redCounters = try await red.changes(at: "/counters").makeAsyncIterator()
            var blueCounters = try await blue.changes(at: "/counters").makeAsyncIterator()
            try await client.dispatch(ClientFixtures.increment("a", by: 1))
            try await red.dispatch(ClientFixtures.increment("r", by: 2))
            try await blue.dispatch(ClientFixtures.increment("b", by: 3))
            #expect(await Self.next(&mainCounters) { $0 == ["a": 1] })
            #expect(await Self.next(&redCounters) { $0 == ["r": 2] })
            #expect(await Self.next(&blueCounters) { $0 == ["b": 3] })
            let epochs = (client.status.epoch, await red.epoch, await blue.epoch)

            await first.stop()
            let second = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "\(port)", "--data", directory.path])
            #expect(try await second.waitForPort() == port, "restart failed: \(second.standardError)")
            await ClientFixtures.waitForConnection(on: client) { $0 == .online }
            #expect(client.status.connections == 2)

            // Another client writes to every store: the first one's mirrors follow.
            try await StateSyncClient.withConnection(ClientFixtures.configuration(url)) { writer in
                try await writer.dispatch(ClientFixtures.increment("a", by: 10))
                try await writer.store("red").dispatch(ClientFixtures.increment("r", by: 20))
                try await writer.store("blue").dispatch(ClientFixtures.increment("b", by: 30))
            }
            #expect(await Self.next(&mainCounters) { $0 == ["a": 11] })
            #expect(await Self.next(&redCounters) { $0 == ["r": 22] })
            #expect(await Self.next(&blueCounters) { $0 == ["b": 33] })
            #expect(client.status.epoch == epochs.0)
            #expect(await red.epoch == epochs.1)
            #expect(await blue.epoch == epochs.2)

            await client.close()
            try await group.waitForAll()
            await second.stop()
        }
    }

    /// `blue` is deleted and written again (a new epoch) while the client is
    /// away, further than the client's revision, so `subscribe … since`
    /// alone would be answered with a patch of the wrong history.
    @Test func aStoreWhoseEpochChangedStartsOverAloneWhileTheOthersResume() async throws {
        let directory = Self.temporaryDirectory("stores-epoch")
        defer { try? FileManager.default.removeItem(at: directory) }   // best-effort cleanup of a temp dir
        let first = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory.path])
        let port = try #require(try await first.waitForPort(), "serve did not start: \(first.standardError)")
        let client = StateSyncClient(configuration: ClientFixtures.configuration("ws://127.0.0.1:\(port)/sync"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.waitUntilOnline()
            let red = try client.store("red"), blue = try client.store("blue")
            var redTitles = try await red.changes(at: "/todos").makeAsyncIterator()
            var blueTitles = try await blue.changes(at: "/todos").makeAsyncIterator()
            try await red.dispatch(["type": "addTodo", "title": "Red"])
            try await blue.dispatch(["type": "addTodo", "title": "Old"])
            #expect(await Self.next(&redTitles) { Self.titles($0) == ["Red"] })
            #expect(await Self.next(&blueTitles) { Self.titles($0) == ["Old"] })
            let redEpoch = await red.epoch, blueEpoch = await blue.epoch
            await first.stop()

            // Another history of blue, further on than the client's revision, served
            // from the same directory on a port the client does not know.
            let (elsewhere, otherPort) = try await Self.serve(directory)
            try await StoreAdminClient(url: "ws://127.0.0.1:\(otherPort)/sync", token: nil).delete(StoreName("blue"))
            try await StateSyncClient.withConnection(ClientFixtures.configuration("ws://127.0.0.1:\(otherPort)/sync")) { writer in
                for title in ["New1", "New2", "New3"] { try await writer.store("blue").dispatch(["type": "addTodo", "title": .string(title)]) }
            }
            await elsewhere.stop()

            let second = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "\(port)", "--data", directory.path])
            #expect(try await second.waitForPort() == port, "restart failed: \(second.standardError)")
            #expect(await Self.next(&blueTitles) { Self.titles($0).count == 3 })
            #expect(try await blue.value(at: "/todos").arrayValue?.compactMap { $0["title"]?.stringValue } == ["New1", "New2", "New3"])
            #expect(await blue.epoch != blueEpoch)
            #expect(await red.epoch == redEpoch)
            try await red.dispatch(["type": "addTodo", "title": "Red2"])
            #expect(await Self.next(&redTitles) { Self.titles($0) == ["Red", "Red2"] })

            await client.close()
            try await group.waitForAll()
            await second.stop()
        }
    }

    /// A failover to another server, where `blue` has another history that
    /// went further than the client's revision: `subscribe … since` alone
    /// would be answered with a patch of that other history (its window
    /// covers the revision), applied to the old mirror.
    @Test func aFailoverToAnotherHistoryIsNotResumedWithItsPatches() async throws {
        let (first, firstPort) = try await ServeProcess.serving(["--host", "127.0.0.1"])
        let (other, otherPort) = try await ServeProcess.serving(["--host", "127.0.0.1"])
        let urls = ["ws://127.0.0.1:\(firstPort)/sync", "ws://127.0.0.1:\(otherPort)/sync"]
        var configuration = ClientFixtures.configuration(urls[0])
        configuration.urls = urls
        let client = StateSyncClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.waitUntilOnline()
            let blue = try client.store("blue")
            var titles = try await blue.changes(at: "/todos").makeAsyncIterator()
            try await blue.dispatch(["type": "addTodo", "title": "Old"])
            #expect(await Self.next(&titles) { Self.titles($0) == ["Old"] })
            let oldEpoch = await blue.epoch

            try await StateSyncClient.withConnection(ClientFixtures.configuration(urls[1])) { writer in
                for title in ["New1", "New2", "New3", "New4"] {
                    try await writer.store("blue").dispatch(["type": "addTodo", "title": .string(title)])
                }
                #expect(try await writer.store("blue").get("").rev > blue.rev, "the other history must go further")
            }
            await first.stop()
            #expect(await Self.next(&titles) { Self.titles($0).count == 4 })
            #expect(Self.titles(try await blue.value(at: "/todos")) == ["New1", "New2", "New3", "New4"])
            #expect(await blue.epoch != oldEpoch)

            await client.close()
            try await group.waitForAll()
            await other.stop()
        }
    }

    private static func temporaryDirectory(_ prefix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    private static func serve(_ directory: URL) async throws -> (ServeProcess, Int) {
        let server = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory.path])
        let port = try #require(try await server.waitForPort(), "serve did not start: \(server.standardError)")
        return (server, port)
    }

    /// The titles of a todo list.
    private static func titles(_ todos: JSONValue) -> [String] {
        todos.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
    }

    /// Reads changes until one whose value satisfies `condition`; `false` when the sequence ends first.
    private static func next(
        _ changes: inout AsyncStream<MirrorChange>.Iterator, until condition: (JSONValue) -> Bool
    ) async -> Bool {
        while let change = await changes.next() {
            if condition(change.value) { return true }
        }
        return false
    }
}
