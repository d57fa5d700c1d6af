import StateSyncCore
import StateSyncLoad
import Testing
@testable import StateSyncServer
import StateSyncTestSupport

/// `LoadRunner` (statesync bench's engine) against an in-process server:
/// every delivery is matched to the subscribers an action concerns, and a
/// server's refusals keep the writers' answers in step.
@Suite(.timeLimit(.minutes(1)))
struct LoadRunnerTests {
    private static func scenario(_ url: String) -> LoadScenario {
        LoadScenario(url: url, clients: 12, writers: 2, rate: 30, duration: .seconds(1), drainTimeout: .seconds(5))
    }

    @Test func aBroadcastDeliversEveryActionToEverySubscriber() async throws {
        let result = try await TestServer.with { server in
            try await LoadRunner(scenario: Self.scenario(server.url)).run { _ in }
        }
        #expect(result.passed, "\(result.problems)")
        #expect(result.counts.acked >= 20)
        #expect(result.counts.deliveries == result.counts.acked * 12)
        #expect(result.deliveryLatency.count == UInt64(result.counts.acked * 12))
        #expect(result.ackLatency.count == UInt64(result.counts.acked))
    }

    @Test func aSecondRunAgainstTheSameServerMeasuresItsOwnActions() async throws {
        let (first, second) = try await TestServer.with { server in
            (try await LoadRunner(scenario: Self.scenario(server.url)).run { _ in },
             try await LoadRunner(scenario: Self.scenario(server.url)).run { _ in })
        }
        // The second run's dispatches reuse the first one's ids: with the same clientIds
        // the server would take them for retries, apply nothing, and deliver nothing.
        #expect(first.passed, "\(first.problems)")
        #expect(second.passed, "\(second.problems)")
        #expect(second.counts.deliveries == second.counts.acked * 12)
        #expect(second.counts.deliveries > 0)
    }

    @Test func anOwnCounterIsDeliveredOnlyToItsSubscriber() async throws {
        let result = try await TestServer.with { server in
            var scenario = Self.scenario(server.url)
            scenario.subscriptions = [Template("/counters/c{i}"), Template("/todos")]
            scenario.action = try ActionTemplate(#"{"type":"increment","counter":"c{n}","by":1}"#)
            return try await LoadRunner(scenario: scenario).run { _ in }
        }
        #expect(result.passed, "\(result.problems)")
        #expect(result.counts.acked >= 20)
        // Each increment concerns one client's counter; no one hears it on /todos.
        #expect(result.counts.expectedDeliveries == result.counts.acked)
        #expect(result.counts.deliveries == result.counts.acked)
    }

    @Test func clientsAndWritersAreSpreadOverStoresEachMatchedOnItsOwn() async throws {
        try await TestServer.with { server in
            var scenario = Self.scenario(server.url)
            scenario.writers = 3
            scenario.stores = 3
            let result = try await LoadRunner(scenario: scenario).run { _ in }
            #expect(result.passed, "\(result.problems)")
            #expect(result.counts.acked >= 20)
            // An increment in a store reaches the 4 clients of that store only.
            #expect(result.counts.expectedDeliveries == result.counts.acked * 4)
            #expect(result.counts.deliveries == result.counts.acked * 4)
            let stores = try #require(result.stores)
            #expect(stores.count == 3)
            #expect(stores.stores.map(\.name) == ["bench-0", "bench-1", "bench-2"])
            #expect(stores.stores.allSatisfy { $0.deliveries > 0 }, "\(stores)")
            #expect(stores.stores.map(\.deliveries).reduce(0, +) == UInt64(result.counts.deliveries))
            #expect(stores.slowest != nil)
            #expect(ResultText.summaryLine(result).contains(" stores=3 slowest_store_p99_ms="))
            // The increments went to the stores, none to main.
            let client = try await ProtocolClient.joined(server.url)
            var hits = 0
            for store in ["main", "bench-0", "bench-1", "bench-2"] {
                try await client.send(#"{"type":"get","store":"\#(store)","id":"g","path":"/counters/hits"}"#)
                let value = try await client.receive("value")["value"]?.intValue ?? 0
                if store == "main" { #expect(value == 0) }
                hits += value
            }
            #expect(hits == result.counts.acked)
        }
    }

    @Test func clientsAreSpreadOverSeveralURLsInTurn() async throws {
        let chats = try await TestServer.with { first in
            try await TestServer.with { second in
                var scenario = Self.scenario(first.url)
                scenario.urls.append(second.url)
                // Two writers, clients 0 and 1: one on each server. Each says
                // something; nobody subscribes to the chat, so the servers'
                // being separate stores changes no expected delivery.
                scenario.subscriptions = [Template("/todos")]
                scenario.action = try ActionTemplate(#"{"type":"postMessage","text":"line {n}"}"#, path: "/chat")
                let result = try await LoadRunner(scenario: scenario).run { _ in }
                #expect(result.passed, "\(result.problems)")
                #expect(result.scenario.url == "\(first.url),\(second.url)")
                let client = try await ProtocolClient.joined(first.url)
                let other = try await ProtocolClient.joined(second.url)
                try await client.send(#"{"type":"get","id":"g","path":"/chat"}"#)
                try await other.send(#"{"type":"get","id":"g","path":"/chat"}"#)
                return (try await client.receive("value")["value"], try await other.receive("value")["value"])
            }
        }
        #expect(chats.0?.arrayValue?.isEmpty == false, "the first server heard no writer")
        #expect(chats.1?.arrayValue?.isEmpty == false, "the second server heard no writer")
    }

    /// A run of one writer at 100 actions/s against a server allowing 5
    /// messages/s, closing the connection after `closeAfter` refusals.
    private static func rateLimitedRun(closeAfter: Int, drainTimeout: Duration) async throws -> LoadResult {
        var configuration = TestServer.configuration
        configuration.session.messagesPerSecond = 5
        configuration.session.burst = 6
        configuration.session.rateLimitedMessagesBeforeClose = closeAfter
        return try await TestServer.with(configuration) { server in
            var scenario = Self.scenario(server.url)
            scenario.clients = 2
            scenario.writers = 1
            scenario.rate = 100
            scenario.drainTimeout = drainTimeout
            return try await LoadRunner(scenario: scenario).run { _ in }
        }
    }

    @Test func aRateLimitedWriterCountsItsRefusalsAndStaysInStep() async throws {
        // Never closed for persisting: every dispatch then gets its answer,
        // however slowly a loaded machine commits the accepted ones.
        let result = try await Self.rateLimitedRun(closeAfter: 1_000, drainTimeout: .seconds(5))
        #expect(result.passed, "\(result.problems)")
        #expect((result.rejectCodes["rate_limited"] ?? 0) >= 3)
        // Every answer matched its dispatch, though refusals overtake acks.
        #expect(!result.problems.contains { $0.contains("to no unanswered dispatch") }, "\(result.problems)")
        #expect(result.counts.acked + result.counts.rejected == result.counts.actionsSent)
        #expect(result.counts.acked >= 1)
    }

    @Test func aWriterClosedForPersistingIsAFailedRunWithItsAnswersInStep() async throws {
        let result = try await Self.rateLimitedRun(closeAfter: 4, drainTimeout: .seconds(1))
        #expect(!result.passed)
        #expect((result.rejectCodes["rate_limited"] ?? 0) >= 3)
        #expect(!result.problems.contains { $0.contains("to no unanswered dispatch") }, "\(result.problems)")
        #expect(result.counts.acked + result.counts.rejected <= result.counts.actionsSent)
    }
}
