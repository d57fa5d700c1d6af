import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncProtocol
import StateSyncTestSupport
import Testing
import WebSocket

@testable import StateSyncClient

/// The client against the real `statesync` binary, which the tests kill and
/// start again on the same port.
@Suite(.timeLimit(.minutes(2))) struct ClientReconnectEndToEndTests {
    @Test func aServerKilledAndRestartedMidStreamLosesAndDuplicatesNoAction() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }   // best-effort cleanup of a temp dir
        let first = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory.path])
        let port = try #require(try await first.waitForPort(), "serve did not start: \(first.standardError)")
        let url = "ws://127.0.0.1:\(port)/sync"
        let client = StateSyncClient(configuration: ClientFixtures.configuration(url, clientID: "restart-test"))
        let writers = 8, perWriter = 60

        let restarted = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.waitUntilOnline()
            try await client.subscribe("/counters")
            let acked = Counter()
            let restarted = try await withThrowingTaskGroup(of: ServeProcess?.self) { tasks in
                for _ in 0..<writers {
                    tasks.addTask {
                        var revs: Set<UInt64> = []
                        for _ in 0..<perWriter {
                            revs.insert(try await client.dispatch(ClientFixtures.increment("n")))
                            await acked.add(1)
                        }
                        #expect(revs.count == perWriter)
                        return nil
                    }
                }
                tasks.addTask {
                    await acked.waitUntil(atLeast: writers * perWriter / 4)
                    first.send(SIGKILL)
                    _ = await first.waitForExit()
                    let second = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "\(port)", "--data", directory.path])
                    #expect(try await second.waitForPort() == port, "restart failed: \(second.standardError)")
                    return second
                }
                return try await tasks.reduce(nil) { $0 ?? $1 }
            }
            #expect(await acked.value == writers * perWriter)
            #expect(try await client.get("/counters/n").value == .integer(Int64(writers * perWriter)))
            #expect(try await client.value(at: "/counters/n") == .integer(Int64(writers * perWriter)))
            #expect(client.status.connections == 2)
            #expect(client.status.resentDispatches > 0, "the kill should catch dispatches in flight")
            await client.close()
            try await group.waitForAll()
            return restarted
        }
        restarted?.send(SIGTERM)
        #expect(await restarted?.waitForExit() == 0)
    }

    @Test func aNewEpochReplacesTheMirrorInsteadOfResuming() async throws {
        let first = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--memory"])
        let port = try #require(try await first.waitForPort(), "serve did not start: \(first.standardError)")
        let client = StateSyncClient(configuration: ClientFixtures.configuration("ws://127.0.0.1:\(port)/sync"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.waitUntilOnline()
            var titles = try await client.observe("/todos", as: [BoardTodo].self).makeAsyncIterator()
            #expect(try await titles.next() == [])
            try await client.dispatch(["type": "addTodo", "title": "Old"])
            #expect(try await titles.next()?.map(\.title) == ["Old"])
            let oldEpoch = try #require(client.status.epoch)

            first.send(SIGTERM)
            #expect(await first.waitForExit() == 0)
            let second = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "\(port)", "--memory"])
            #expect(try await second.waitForPort() == port)
            await ClientFixtures.waitForConnection(on: client) { $0 == .online }
            #expect(client.status.epoch != oldEpoch)
            #expect(try await titles.next() == [])
            try await client.dispatch(["type": "addTodo", "title": "New"])
            #expect(try await titles.next()?.map(\.title) == ["New"])

            await client.close()
            try await group.waitForAll()
            second.send(SIGTERM)
            #expect(await second.waitForExit() == 0)
        }
    }
}

/// The board's todo as the wire shows it (the test decodes without BoardApp's types).
private struct BoardTodo: Decodable, Equatable, Sendable {
    let id: String
    let title: String
    let done: Bool
}

/// A count that tasks can wait on.
private actor Counter {
    private(set) var value = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func add(_ amount: Int) {
        value += amount
        let ready = waiters.filter { $0.0 <= value }
        waiters.removeAll { $0.0 <= value }
        for (_, waiter) in ready { waiter.resume() }
    }

    func waitUntil(atLeast target: Int) async {
        if value >= target { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ClientTLSEndToEndTests {
    @Test func mirrorsAndDispatchesOverWSS() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }   // best-effort cleanup of a temp dir
        let files = try await TestCertificate.make(in: directory.path)
        let server = try ServeProcess(["serve", "--memory", "--port", "0", "--tls-cert", files.certificate, "--tls-key", files.key])
        let port = try #require(try await server.waitForPort(), "serve did not start: \(server.standardError)")
        var configuration = ClientFixtures.configuration("wss://localhost:\(port)/sync")
        configuration.tlsConfiguration = try WebSocketTLS.clientConfiguration(trustedCertificatePath: files.certificate)
        try await StateSyncClient.withConnection(configuration) { client in
            try await client.subscribe("/counters")
            let rev = try await client.dispatch(ClientFixtures.increment("tls", by: 7))
            #expect(try await client.value(at: "/counters/tls") == 7)
            #expect(client.status.rev >= rev)
        }
        server.send(SIGTERM)
        #expect(await server.waitForExit() == 0)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ClientRefusedOnReconnectTests {
    @Test func aRefusalOnReconnectEndsWithConnectionAndCancelsItsBody() async throws {
        let first = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--memory", "--token", "old=writer"])
        let port = try #require(try await first.waitForPort(), "serve did not start: \(first.standardError)")
        var configuration = ClientFixtures.configuration("ws://127.0.0.1:\(port)/sync")
        configuration.token = "old"
        let error = await #expect(throws: StateSyncClientError.self) {
            try await StateSyncClient.withConnection(configuration) { client in
                let changes = try await client.changes(at: "/counters")
                first.send(SIGTERM)
                _ = await first.waitForExit()
                let second = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "\(port)", "--memory", "--token", "new=writer"])
                defer { second.send(SIGTERM) }
                for await _ in changes {}                           // ends when the client ends for good
                try await Task.sleep(for: .seconds(60))             // cancelled by withConnection, well before the time limit
            }
        }
        #expect(error?.code == .unauthorized)
    }
}
