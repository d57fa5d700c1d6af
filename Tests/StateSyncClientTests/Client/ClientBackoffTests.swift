import StateSyncClient
import StateSyncCore
import StateSyncTestSupport
import Synchronization
import Testing

/// Reconnect delays are really waited, attempt after attempt, and close()
/// cuts a delay short.
@Suite(.timeLimit(.minutes(1)))
struct ClientBackoffTests {
    @Test func failedAttemptsWaitTheirDelayAndCloseWakesTheWait() async throws {
        let port = try await TestServer.with { $0.port }   // stopped: nothing listens there now
        var configuration = ClientFixtures.configuration("ws://127.0.0.1:\(port)/sync")
        configuration.waitsForServer = true
        configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(300), maximumDelay: .seconds(30), jitter: 0)
        let client = StateSyncClient(configuration: configuration)
        let attempts = Attempts()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            group.addTask {
                for await state in client.observeStatus(\.connection) where state == .connecting {
                    attempts.count.add(1, ordering: .relaxed)
                }
            }
            // 300 ms, then 600 ms: at most three attempts in the first second
            // (a pause that returned at once would make hundreds).
            try await Task.sleep(for: .seconds(1))
            #expect((2...3).contains(attempts.count.load(ordering: .relaxed)), "\(attempts.count.load(ordering: .relaxed)) attempts in 1 s")
            // Now in a 1.2 s (or longer) pause: close ends it at once.
            let closing = ContinuousClock.now
            await client.close()
            try await group.next()
            #expect(ContinuousClock.now - closing < .milliseconds(500))
            group.cancelAll()
        }
    }
}

/// Connection attempts seen, counted from the observing task.
private final class Attempts: Sendable {
    let count = Atomic(0)
}
