import Foundation
import StateSyncCore
import StateSyncTestSupport
import TestProcessSupport
import Testing

@testable import StateSyncClient

/// Several URLs (the nodes of a cluster): the client fails over to the next
/// one when a connection drops or fails, resuming there. The nodes here
/// are `statesync serve` processes over one data directory, one at a time,
/// so the history (and the epoch) is the same on each.
@Suite(.timeLimit(.minutes(1))) struct ClientFailoverEndToEndTests {
    /// A loopback port nothing listens on now.
    private static func freePort() async throws -> Int {
        let probe = try ServeProcess(["serve", "--memory", "--host", "127.0.0.1", "--port", "0"])
        let port = try #require(try await probe.waitForPort(), "\(probe.standardError)")
        probe.send(SIGTERM)
        _ = await probe.waitForExit()
        return port
    }

    @Test func aDroppedNodeFailsOverToTheNextURLAndResumesThere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("client-failover-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }   // best-effort cleanup of a temp dir
        do {
            let first = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "0", "--data", directory])
            let port = try #require(try await first.waitForPort(), "\(first.standardError)")
            let sparePort = try await Self.freePort()
            var configuration = ClientFixtures.configuration("ws://127.0.0.1:\(port)/sync")
            configuration.urls.append("ws://127.0.0.1:\(sparePort)/sync")
            let client = StateSyncClient(configuration: configuration)
            let second = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.run() }
                try await client.waitUntilOnline()
                try await client.subscribe("/counters")
                try await client.dispatch(ClientFixtures.increment("hits"))
                let epoch = try #require(client.status.epoch)

                first.send(SIGTERM)
                #expect(await first.waitForExit() == 0)
                await ClientFixtures.waitForConnection(on: client) { $0 != .online }
                async let pending = client.dispatch(ClientFixtures.increment("hits", by: 2))
                let second = try ServeProcess(["serve", "--host", "127.0.0.1", "--port", "\(sparePort)", "--data", directory])
                #expect(try await second.waitForPort() == sparePort, "\(second.standardError)")
                let rev = try await pending
                await ClientFixtures.waitForRevision(rev, on: client)
                #expect(client.status.epoch == epoch, "the same history on the other node: resumed, not reloaded")
                #expect(try await client.value(at: "/counters/hits") == 3)
                #expect(client.status.connections == 2)
                await client.close()
                try await group.waitForAll()
                return second
            }
            second.send(SIGTERM)
            #expect(await second.waitForExit() == 0)
        }
    }

    @Test func aDeadFirstURLIsSkippedEvenWithoutWaitingForTheServer() async throws {
        let (server, port) = try await ServeProcess.serving()
        let dead = "ws://127.0.0.1:\(try await Self.freePort())/sync"
        var configuration = StateSyncClientConfiguration(urls: [dead, "ws://127.0.0.1:\(port)/sync"])
        configuration.waitsForServer = false
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400))
        let client = StateSyncClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.waitUntilOnline()
            #expect(try await client.dispatch(ClientFixtures.increment("hits")) >= 1)
            await client.close()
            try await group.waitForAll()
        }
        await server.stop()
    }

    @Test func whenEveryURLIsDeadTheFirstRoundEndsWithTheLastError() async throws {
        // Bound and not listening: refused, and no parallel test's server can take them meanwhile.
        let reserved = try [ReservedPort(), ReservedPort()]
        defer { for port in reserved { port.release() } }
        let dead = reserved.map { "ws://127.0.0.1:\($0.port)/sync" }
        var configuration = StateSyncClientConfiguration(urls: dead)
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(50))
        let client = StateSyncClient(configuration: configuration)
        let error = await #expect(throws: StateSyncClientError.self) { try await client.run() }
        // The last URL tried is the one the error names.
        #expect(error?.description.hasPrefix("cannot connect to \(dead[1]):") == true, "\(String(describing: error))")
    }

    @Test func noURLIsAClearError() async throws {
        let client = StateSyncClient(configuration: StateSyncClientConfiguration(urls: []))
        let error = await #expect(throws: StateSyncClientError.self) { try await client.run() }
        #expect(error == .cannotConnect(url: "", reason: "the configuration names no URL"))
    }
}
