import Foundation

/// A self-contained HTML page of a ``LoadResult``: the summary table,
/// latency over time, throughput over time and the latency distribution,
/// drawn as inline SVG. It loads nothing from the network.
public enum HTMLReport {
    /// The page's HTML.
    public static func render(_ result: LoadResult) -> String {
        let timeline = result.timeline
        let latency = SVGChart(
            title: "Latency over time (per second)", xLabel: "seconds since writers started", yLabel: "ms",
            series: [
                .init(name: "delivery p50", color: "#4c78a8", points: timeline.map { ($0.second, $0.deliveryP50) }),
                .init(name: "delivery p99", color: "#e45756", points: timeline.map { ($0.second, $0.deliveryP99) }),
                .init(name: "delivery max", color: "#b279a2", points: timeline.map { ($0.second, $0.deliveryMax) }),
                .init(name: "ack p99", color: "#54a24b", points: timeline.map { ($0.second, $0.ackP99) }),
            ])
        let throughput = SVGChart(
            title: "Throughput over time", xLabel: "seconds since writers started", yLabel: "per second",
            series: [
                .init(name: "deliveries/s", color: "#4c78a8", points: timeline.map { ($0.second, Double($0.deliveries)) }),
                .init(name: "acks/s", color: "#54a24b", points: timeline.map { ($0.second, Double($0.acks)) }),
            ])
        let distribution = SVGChart(
            title: "Latency distribution", xLabel: "percentile", yLabel: "ms",
            series: [
                .init(name: "dispatch→delivery", color: "#e45756", points: result.deliveryDistribution.map { (nines($0.percentile), $0.milliseconds) }),
                .init(name: "dispatch→ack", color: "#54a24b", points: result.ackDistribution.map { (nines($0.percentile), $0.milliseconds) }),
            ],
            xTicks: [(0, "0%"), (1, "90%"), (2, "99%"), (3, "99.9%"), (4, "≥99.99%")].map { SVGChart.Tick(value: $0.0, label: $0.1) })
        let verdict = result.passed ? #"<p class="ok">PASSED: no gaps, no errors, every expected delivery counted.</p>"#
            : #"<p class="bad">FAILED: see the problems below.</p>"#
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>statesync bench: \(result.rampUp.connected) clients</title>
            <style>
            body { font-family: sans-serif; margin: 2em; max-width: 60em; color: #222; }
            pre { background: #f6f6f6; padding: 1em; overflow-x: auto; }
            .ok { color: #1a7f37; font-weight: bold; } .bad { color: #c62828; font-weight: bold; }
            svg { display: block; margin: 1.5em 0; max-width: 100%; }
            </style></head><body>
            <h1>statesync bench</h1>
            <p>\(HTMLText.escape(result.scenario.url)) · started \(HTMLText.escape(result.startedAt)) ·
            \(result.scenario.clients) clients subscribed to \(HTMLText.escape(result.scenario.subscriptions.joined(separator: ", "))) ·
            \(result.scenario.writers) writers at \(ResultText.fixed(result.scenario.rate, 0)) actions/s of
            <code>\(HTMLText.escape(result.scenario.action))</code> for \(ResultText.fixed(result.scenario.durationSeconds, 0)) s</p>
            \(verdict)
            <pre>\(HTMLText.escape(ResultText.table(result)))

            \(HTMLText.escape(ResultText.summaryLine(result)))</pre>
            \(latency.render())
            \(throughput.render())
            \(distribution.render())
            </body></html>

            """
    }

    /// The percentile on a "number of nines" scale: 90 → 1, 99 → 2, 99.9 → 3
    /// (capped at 4: 99.99 and above, the maximum included, share the right edge).
    static func nines(_ percentile: Double) -> Double {
        let rest = 1 - percentile / 100
        return rest <= 1e-4 ? 4 : -log10(rest)
    }
}
