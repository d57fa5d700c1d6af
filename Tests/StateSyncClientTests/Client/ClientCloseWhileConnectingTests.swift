import StateSyncClient
import StateSyncServer
import StateSyncTestSupport
import Testing

/// `close()` while a connection is being opened: the client must not go
/// online on it afterwards (the soak driver's clients that stayed "online"
/// after `close()`, with `run()` never returning).
@Suite(.timeLimit(.minutes(1)))
struct ClientCloseWhileConnectingTests {
    @Test func closeBeforeTheWelcomeEndsRunWithoutGoingOnline() async throws {
        // The server holds the session before it handles the hello, so the
        // client waits for its welcome until the gate opens.
        let gate = Gate()
        gate.close()
        defer { gate.open() }   // never leave a session stuck
        let (hellos, hello) = AsyncStream.makeStream(of: Void.self)
        var configuration = TestServer.configuration
        configuration.sessionWillHandleMessage = { proceed in
            hello.yield()
            gate.whenOpen(proceed)
        }
        try await TestServer.with(configuration) { server in
            let client = StateSyncClient(configuration: ClientFixtures.configuration(server.url))
            let running = Task { try await client.run() }
            var arrived = hellos.makeAsyncIterator()
            await arrived.next()
            let closing = Task { await client.close() }
            await ClientFixtures.waitForConnection(on: client) { $0 == .closed }
            // The welcome may now come (or the close reach the server first).
            gate.open()
            await closing.value
            try await running.value
            #expect(client.status.connection == .closed)
            #expect(client.status.connections == 0)
            await #expect(throws: StateSyncClientError.closed) { try await client.waitUntilOnline() }
        }
    }
}
