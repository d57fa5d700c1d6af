import StateSyncClient
import StateSyncProtocol
import Testing
@testable import statesync

/// What `mirror` runs behind its view, without a terminal.
@Suite(.timeLimit(.minutes(1)))
struct MirrorSessionTests {
    /// Ctrl-C while `mirror` still connects closes the client before the board's
    /// snapshot came: `mirror` must exit as it does after it, not with "the client
    /// was closed before the server answered" (exit 1).
    @Test func aClientClosedBeforeTheFirstSnapshotEndsTheBoardFeedWithoutAnError() async throws {
        // Nothing listens on port 1: the client keeps connecting, as toward a server not started yet.
        let client = StateSyncClient(configuration: StateSyncClientConfiguration(url: "ws://127.0.0.1:1/sync"))
        let running = Task { try await client.run() }
        let feeding = Task { try await MirrorSession.feedBoard(client.store(.main), show: { _ in }) }
        await client.close()
        try await feeding.value
        try await running.value
        #expect(client.status.connection == .closed)
    }
}
