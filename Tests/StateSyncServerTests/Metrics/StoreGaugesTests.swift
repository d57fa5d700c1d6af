import Foundation
import Prometheus
import StateSyncProtocol
import StateSyncTestSupport
import Testing
@testable import StateSyncServer

/// The per-store gauges: only the top stores by sessions are labelled, and
/// a store that leaves them loses its series.
@Suite(.timeLimit(.minutes(2)))
struct StoreGaugesTests {
    /// The `store` labels of `name`'s series in a Prometheus text exposition, with their values.
    static func series(_ name: String, in exposition: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in exposition.split(separator: "\n") where line.hasPrefix("\(name){store=\"") {
            let label = line.dropFirst(name.count + 8).prefix { $0 != "\"" }
            // Prometheus writes gauges as floats: "6.0"; -1 for a value that does not read.
            found[String(label)] = Double(line.split(separator: " ").last ?? "").map { Int($0) } ?? -1
        }
        return found
    }

    @Test func aHundredStoresMakeAtMostTheLimitOfSeriesAndOneThatLeavesIsRemoved() throws {
        let registry = PrometheusCollectorRegistry()
        let gauges = StoreGauges(limit: 10, factory: PrometheusMetricsFactory(registry: registry))
        var figures = try (0..<100).map { StoreGauges.Figures(store: try StoreName("s-\($0)"), sessions: $0 % 7, revision: UInt64($0)) }
        gauges.update(figures)
        var exposition = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        let sessions = Self.series("statesync_store_sessions", in: exposition)
        #expect(sessions.count == 10)
        #expect(Self.series("statesync_store_revision", in: exposition).count == 10)
        // The ten with 6 sessions (6, 13, 20, …) sort first; ties by name.
        #expect(sessions.values.allSatisfy { $0 == 6 }, "\(sessions)")
        #expect(sessions["s-13"] == 6)

        // s-13 empties and s-0 fills: s-13 leaves the top and loses its series.
        figures[13].sessions = 0
        figures[0].sessions = 50
        gauges.update(figures)
        exposition = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        let after = Self.series("statesync_store_sessions", in: exposition)
        #expect(after.count == 10)
        #expect(after["s-0"] == 50)
        #expect(after["s-13"] == nil)
        #expect(Self.series("statesync_store_revision", in: exposition)["s-13"] == nil)

        gauges.removeAll()
        #expect(Self.series("statesync_store_sessions", in: String(decoding: registry.emitToBuffer(), as: UTF8.self)).isEmpty)
    }

    @Test func aLimitOfZeroLabelsNone() throws {
        let registry = PrometheusCollectorRegistry()
        let gauges = StoreGauges(limit: 0, factory: PrometheusMetricsFactory(registry: registry))
        gauges.update([StoreGauges.Figures(store: .main, sessions: 3, revision: 9)])
        let exposition = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(Self.series("statesync_store_sessions", in: exposition).isEmpty)
        #expect(Self.series("statesync_store_revision", in: exposition).isEmpty)
    }

    @Test func aServerWithAHundredStoresLabelsItsTopStoresBySessions() async throws {
        var configuration = TestServer.configuration
        configuration.stores.metricsTopStores = 4
        configuration.session.maxStoresPerSession = 200
        configuration.session.messagesPerSecond = 10_000
        configuration.session.burst = 10_000
        try await TestServer.with(configuration) { server in
            // One connection in 100 stores, two more in s-7: main has 3 sessions, s-7 3, the others 1.
            let everywhere = try await ProtocolClient.joined(server.url)
            for index in 0..<100 {
                try await everywhere.send(#"{"type":"subscribe","store":"s-\#(index)","id":"s","path":"/counters"}"#)
                _ = try await everywhere.receive("snapshot")
            }
            var extra: [ProtocolClient] = []
            for _ in 0..<2 {
                let client = try await ProtocolClient.joined(server.url)
                try await client.send(#"{"type":"subscribe","store":"s-7","id":"s","path":"/counters"}"#)
                _ = try await client.receive("snapshot")
                extra.append(client)
            }
            func labelled() async throws -> [String: Int] {
                Self.series("statesync_store_sessions", in: try await HTTPGet.get(port: server.port, path: "/metrics").body)
            }
            let expected = ["main": 3, "s-7": 3, "s-0": 1, "s-1": 1]
            #expect(try await eventually { try await labelled() == expected })
            // The two leave s-7: it falls back among the ties and loses its series.
            for client in extra { try await client.close() }
            let after = ["main": 1, "s-0": 1, "s-1": 1, "s-10": 1]
            #expect(try await eventually { try await labelled() == after })
            try await everywhere.close()
        }
    }
}
