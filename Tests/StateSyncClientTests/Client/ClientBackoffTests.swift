import TestProcessSupport
import StateSyncClient
import StateSyncCore
import StateSyncTestSupport
import Testing

/// Reconnect delays are really waited, attempt after attempt, and close()
/// cuts a delay short.
@Suite(.timeLimit(.minutes(1)))
struct ClientBackoffTests {
    @Test func failedAttemptsWaitTheirDelayAndCloseWakesTheWait() async throws {
        let reserved = try ReservedPort()
        var configuration = ClientFixtures.configuration("ws://127.0.0.1:\(reserved.port)/sync")
        configuration.waitsForServer = true
        configuration.reconnect = ReconnectPolicy(
            initialDelay: .milliseconds(300), maximumDelay: .seconds(60), multiplier: 10, jitter: 0)
        let client = StateSyncClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            // The attempts, and the start of the pause after the third: delays
            // of 300 ms and 3 s come between them (a load can only make
            // them longer; a pause that returned at once would make them ~0).
            var attempts: [ContinuousClock.Instant] = []
            for await state in client.observeStatus(\.connection) {
                if state == .connecting { attempts.append(.now) }
                if attempts.count == 3, case .offline = state { break }
            }
            // Cancelled by the time limit, the loop ends early: fail, do not crash the whole run.
            try #require(attempts.count == 3, "\(attempts.count) attempts before the status stream ended")
            #expect(attempts[1] - attempts[0] >= .milliseconds(300))
            #expect(attempts[2] - attempts[1] >= .seconds(3))
            // Now in a 30 s pause: close ends it at once (the bound is half the
            // pause: a loaded machine took 3.25 s to return inside the whole suite).
            let closing = ContinuousClock.now
            await client.close()
            try await group.next()
            #expect(ContinuousClock.now - closing < .seconds(15))
            group.cancelAll()
        }
        reserved.release()
    }
}
