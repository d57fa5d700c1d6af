import StateSyncCore
import StateSyncLoad
import Testing
@testable import StateSyncServer
import StateSyncTestSupport

/// `statesync bench --reconnect-storm`: every connection dropped at once
/// mid-run; every client reconnects, resumes with `since` and sends its
/// unanswered actions again; nothing is missed and nothing applied twice.
@Suite(.timeLimit(.minutes(1)))
struct ReconnectStormTests {
    private static func scenario(_ url: String) -> LoadScenario {
        var scenario = LoadScenario(url: url, clients: 12, writers: 2, rate: 40, duration: .seconds(2), drainTimeout: .seconds(5))
        scenario.reconnectStormAt = .milliseconds(700)
        return scenario
    }

    /// The board's `hits` in `main`, read by a client of its own.
    private static func hits(_ server: TestServer) async throws -> Int {
        let client = try await ProtocolClient.joined(server.url)
        try await client.send(#"{"type":"get","id":"g","path":"/counters/hits"}"#)
        return try await client.receive("value")["value"]?.intValue ?? 0
    }

    /// A run with a storm against a server of `configuration`, and the board's `hits` after it.
    private static func run(_ configuration: StateSyncServerConfiguration = TestServer.configuration) async throws -> (LoadResult, hits: Int) {
        try await TestServer.with(configuration) { server in
            (try await LoadRunner(scenario: Self.scenario(server.url)).run { _ in }, try await Self.hits(server))
        }
    }

    @Test func everyClientResumesByPatchAndEveryActionIsAppliedOnce() async throws {
        let (result, hits) = try await Self.run()
        #expect(result.passed, "\(result.problems)")
        let storm = try #require(result.reconnectStorm)
        #expect(storm.dropped == 12)
        #expect(storm.reconnected == 12)
        #expect(storm.failed == 0)
        #expect(storm.convergedSeconds != nil)
        // The history window (1,024 revisions) holds every subscription's revision.
        #expect(storm.resumedByPatch == 12)
        #expect(storm.resumedBySnapshot == 0)
        #expect(result.counts.gaps == 0)
        #expect(result.counts.droppedConnections == 0)
        // Every action sent (those in the outbox during the storm too) was
        // answered, applied once, and delivered to every subscriber.
        #expect(result.counts.acked == result.counts.actionsSent)
        #expect(result.counts.acked >= 60)
        #expect(hits == result.counts.acked)
        #expect(result.counts.deliveries == result.counts.acked * 12)
    }

    @Test func aRevisionOutsideTheHistoryIsResumedWithASnapshotThatCountsAsItsDeliveries() async throws {
        var configuration = TestServer.configuration
        // Only the newest revision is kept: every session's own join moves
        // the store past the revision its client saw before the drop.
        configuration.engine.historyWindow = 1
        let (result, hits) = try await Self.run(configuration)
        #expect(result.passed, "\(result.problems)")
        let storm = try #require(result.reconnectStorm)
        #expect(storm.reconnected == 12)
        #expect(storm.resumedBySnapshot == 12)
        #expect(storm.resumedByPatch == 0)
        #expect(hits == result.counts.acked)
        #expect(result.counts.deliveries == result.counts.acked * 12)
    }
}
