import Foundation
import Testing
@testable import StateSyncLoad

@Suite struct ReportTests {
    static func sample(gaps: Int = 0, problems: [String] = []) -> LoadResult {
        var ack = LatencyHistogram()
        var delivery = LatencyHistogram()
        for value in 1...1_000 {
            ack.record(nanoseconds: UInt64(value) * 1_000)
            delivery.record(nanoseconds: UInt64(value) * 10_000)
        }
        return LoadResult(
            scenario: .init(url: "ws://127.0.0.1:1/sync", clients: 3, writers: 1, rate: 10, durationSeconds: 2,
                            subscriptions: ["/counters"], action: #"{"type":"increment","counter":"hits"}"#,
                            actionPath: "/counters/hits", threads: 2),
            rampUp: .init(seconds: 0.5, connected: 3, failed: 0, connectionsPerSecond: 6),
            counts: .init(actionsSent: 20, actionsSkipped: 0, acked: 20, rejected: 0, patches: 60, deliveries: 60,
                          expectedDeliveries: 60, gaps: gaps, errors: 0, droppedConnections: 0, bytesReceived: 6_000, bytesSent: 2_000),
            rates: .init(runSeconds: 2, actionsPerSecond: 10, deliveriesPerSecond: 30, patchesPerSecond: 30, bytesReceivedPerSecond: 3_000),
            ackLatency: .init(ack), deliveryLatency: .init(delivery),
            ackDistribution: [.init(percentile: 50, milliseconds: 0.5), .init(percentile: 99.9, milliseconds: 1)],
            deliveryDistribution: [.init(percentile: 50, milliseconds: 5), .init(percentile: 100, milliseconds: 10)],
            timeline: [.init(second: 1, acks: 10, deliveries: 30, ackP50: 0.5, ackP99: 1, deliveryP50: 5, deliveryP99: 9.9, deliveryMax: 10)],
            generator: .init(cpuSeconds: 0.1, cpuPercent: 5, peakRSSBytes: 1 << 20, threads: 2, cores: 2),
            server: nil, problems: problems, rejectCodes: [:], loadAverageBefore: [1, 1, 1], loadAverageAfter: [1, 1, 1],
            startedAt: "2026-11-21T00:00:00Z")
    }

    @Test func summaryLineHasEveryFieldTheIssueNames() {
        let line = ResultText.summaryLine(Self.sample())
        #expect(line == "RESULT clients=3 actions_per_s=10.0 deliveries_per_s=30.0 ack_p99_ms=0.99 delivery_p99_ms=9.90 gaps=0 errors=0")
    }

    /// ``sample()`` as a run over several URLs: deliveries to the writer's
    /// node up to 2 ms, to another node up to 3 ms.
    static func clusterSample() -> LoadResult {
        var result = Self.sample()
        var same = LatencyHistogram()
        var cross = LatencyHistogram()
        for value in 1...100 {
            same.record(nanoseconds: UInt64(value) * 20_000)
            cross.record(nanoseconds: UInt64(value) * 30_000)
        }
        result.sameNodeDeliveryLatency = .init(same)
        result.crossNodeDeliveryLatency = .init(cross)
        result.sameNodeDeliveryDistribution = [.init(percentile: 50, milliseconds: 1), .init(percentile: 100, milliseconds: 2)]
        result.crossNodeDeliveryDistribution = [.init(percentile: 50, milliseconds: 1.5), .init(percentile: 100, milliseconds: 3)]
        return result
    }

    @Test func aClusterRunReportsSameAndCrossNodeDeliveries() {
        let result = Self.clusterSample()
        #expect(ResultText.summaryLine(result).contains(" delivery_p99_ms=9.90 same_node_p99_ms=1.98 cross_node_p99_ms=2.97 gaps=0"))
        let table = ResultText.table(result)
        #expect(table.contains(" same node"))
        #expect(table.contains(" other node"))
        #expect(!ResultText.table(Self.sample()).contains("other node"), "one URL: no split")
    }

    @Test func aReconnectStormIsReportedAndFailsTheRunUntilEveryClientResumed() throws {
        var result = Self.sample()
        result.reconnectStorm = LoadResult.ReconnectStorm(
            atSeconds: 1, dropped: 3, reconnected: 3, failed: 0, convergedSeconds: 0.25, resumedByPatch: 2, resumedBySnapshot: 1,
            serverRSSBeforeBytes: 100 << 20, serverRSSPeakBytes: 120 << 20)
        #expect(result.passed)
        #expect(ResultText.summaryLine(result).hasSuffix(" delivery_p99_ms=9.90 storm_converged_s=0.25 storm_rss_ratio=1.20 gaps=0 errors=0"))
        #expect(ResultText.table(result).contains(
            "storm       3 dropped at 1.0 s: 3 reconnected (0 failed), all resumed in 0.25 s (2 subscriptions by patch, 1 by snapshot); server RSS 100.0 MiB before, peak 120.0 MiB (1.20x)"))
        let decoded = try JSONDecoder().decode(LoadResult.self, from: JSONEncoder().encode(result))
        #expect(decoded.reconnectStorm == result.reconnectStorm)

        result.reconnectStorm?.convergedSeconds = nil
        #expect(!result.passed)
        #expect(ResultText.summaryLine(result).contains(" storm_converged_s=none "))
        #expect(ResultText.table(result).contains("not all resumed"))
        result.reconnectStorm?.convergedSeconds = 0.25
        result.reconnectStorm?.failed = 1
        #expect(!result.passed)
    }

    @Test func tableShowsPercentilesAndTallies() {
        let table = ResultText.table(Self.sample())
        #expect(table.contains("p99.9"))
        #expect(table.contains("60 of 60 expected"))
        #expect(ResultText.grouped(1_234_567) == "1,234,567")
    }

    @Test func tableShowsTheServersThreadsAndJSONKeepsThem() throws {
        var result = Self.sample()
        result.server = LoadResult.ServerUsage(
            pid: 42, cpuSeconds: 1.2, cpuPercent: 60, rssBeforeBytes: 1 << 20, rssIdleBytes: 2 << 20, rssAfterBytes: 2 << 20,
            bytesPerIdleConnection: 349_525, cpuMicrosecondsPerDelivery: 20_000,
            threads: [.init(name: "NIO-ELT-1-#1", cpuPercent: 31), .init(name: "NIO-ELT-1-#2", cpuPercent: 29)])
        #expect(ResultText.table(result).contains("server      threads: NIO-ELT-1-#1 31 %, NIO-ELT-1-#2 29 %"))
        let decoded = try JSONDecoder().decode(LoadResult.self, from: JSONEncoder().encode(result))
        #expect(decoded.server?.threads == result.server?.threads)
    }

    @Test func passedNeedsNoGapsAndEveryDelivery() {
        #expect(Self.sample().passed)
        #expect(!Self.sample(gaps: 1).passed)
    }

    @Test func htmlReportIsSelfContainedAndEscaped() {
        let html = HTMLReport.render(Self.sample(problems: ["<script>alert(1)</script>"]))
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 3)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;"))
        // Nothing is fetched: the only URLs are the SVG namespace and the server's own.
        let urls = html.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
        #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg") })
        #expect(!html.contains("src="))
    }

    @Test func aClusterRunsHTMLReportSplitsDeliveriesBySameAndOtherNode() throws {
        let html = HTMLReport.render(Self.clusterSample())
        #expect(html.contains("<h2>Delivery by node</h2>"))
        let same = try #require(html.components(separatedBy: "<tr><td>same node</td>").dropFirst().first?.prefix { $0 != "\n" })
        let other = try #require(html.components(separatedBy: "<tr><td>other node</td>").dropFirst().first?.prefix { $0 != "\n" })
        // count, p50, p90, p99, p99.9, max
        #expect(same.hasPrefix("<td>100</td><td>1.00</td><td>1.80</td><td>1.98</td>"), "\(same)")
        #expect(other.hasPrefix("<td>100</td><td>1.50</td><td>2.70</td><td>2.97</td>"), "\(other)")
        #expect(html.contains("Cross-node p99: 2.97 ms, 1.50× the same-node p99."))
        // The distribution chart has a curve for each.
        #expect(html.contains(">→delivery, same node</text>"))
        #expect(html.contains(">→delivery, other node</text>"))

        let single = HTMLReport.render(Self.sample())
        #expect(!single.contains("Delivery by node"), "one URL: no split")
        #expect(!single.contains("other node"))
    }

    @Test func aClusterRunsJSONKeepsTheNodeDistributions() throws {
        let decoded = try JSONDecoder().decode(LoadResult.self, from: JSONEncoder().encode(Self.clusterSample()))
        #expect(decoded.crossNodeDeliveryDistribution?.last?.milliseconds == 3)
        // A report written before the split decodes without it.
        let older = try JSONDecoder().decode(LoadResult.self, from: JSONEncoder().encode(Self.sample()))
        #expect(older.sameNodeDeliveryDistribution == nil)
    }

    @Test func jsonRoundTrips() throws {
        let data = try JSONEncoder().encode(Self.sample())
        let decoded = try JSONDecoder().decode(LoadResult.self, from: data)
        #expect(decoded.counts.deliveries == 60)
        #expect(decoded.deliveryLatency.p99 == Self.sample().deliveryLatency.p99)
    }

    @Test func niceCeilingRoundsUpToOneTwoOrFive() {
        #expect(SVGChart.niceCeiling(7) == 10)
        #expect(SVGChart.niceCeiling(0.13) == 0.2)
        #expect(SVGChart.niceCeiling(300) == 500)
        #expect(abs(HTMLReport.nines(99) - 2) < 1e-9)
        #expect(HTMLReport.nines(100) == 4)
    }
}
