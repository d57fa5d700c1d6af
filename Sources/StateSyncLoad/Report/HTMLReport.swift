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
        var curves: [SVGChart.Series] = [
            .init(name: "dispatch→delivery", color: "#e45756", points: curve(result.deliveryDistribution)),
            .init(name: "dispatch→ack", color: "#54a24b", points: curve(result.ackDistribution)),
        ]
        if let same = result.sameNodeDeliveryDistribution, let cross = result.crossNodeDeliveryDistribution {
            curves += [
                .init(name: "→delivery, same node", color: "#4c78a8", points: curve(same)),
                .init(name: "→delivery, other node", color: "#f58518", points: curve(cross)),
            ]
        }
        let distribution = SVGChart(
            title: "Latency distribution", xLabel: "percentile", yLabel: "ms",
            series: curves,
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
            table.nodes { border-collapse: collapse; } table.nodes th, table.nodes td { padding: 0.2em 0.8em; text-align: right; }
            table.nodes th:first-child, table.nodes td:first-child { text-align: left; }
            </style></head><body>
            <h1>statesync bench</h1>
            <p>\(HTMLText.escape(result.scenario.url)) · started \(HTMLText.escape(result.startedAt)) ·
            \(result.scenario.clients) clients subscribed to \(HTMLText.escape(result.scenario.subscriptions.joined(separator: ", "))) ·
            \(result.scenario.writers) writers at \(ResultText.fixed(result.scenario.rate, 0)) actions/s of
            <code>\(HTMLText.escape(result.scenario.action))</code> for \(ResultText.fixed(result.scenario.durationSeconds, 0)) s</p>
            \(verdict)
            \(nodeSplit(result))
            <pre>\(HTMLText.escape(ResultText.table(result)))

            \(HTMLText.escape(ResultText.summaryLine(result)))</pre>
            \(latency.render())
            \(throughput.render())
            \(distribution.render())
            </body></html>

            """
    }

    /// With several URLs (a cluster), same-node against cross-node deliveries and the
    /// ratio of their p99s; nothing with one URL.
    static func nodeSplit(_ result: LoadResult) -> String {
        guard let same = result.sameNodeDeliveryLatency, let cross = result.crossNodeDeliveryLatency else { return "" }
        let rows = [("same node", same), ("other node", cross)].map { name, summary in
            let cells = [summary.p50, summary.p90, summary.p99, summary.p999, summary.max].map { "<td>\(ResultText.fixed($0, 2))</td>" }
            return "<tr><td>\(name)</td><td>\(ResultText.grouped(Int(summary.count)))</td>\(cells.joined())</tr>"
        }
        let ratio = same.p99 > 0 ? "\(ResultText.fixed(cross.p99 / same.p99, 2))× the same-node p99" : "no same-node delivery"
        return """
            <h2>Delivery by node</h2>
            <table class="nodes">
            <tr><th>dispatch→delivery (ms)</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>
            \(rows.joined(separator: "\n"))
            </table>
            <p>Cross-node p99: \(ResultText.fixed(cross.p99, 2)) ms, \(ratio).</p>
            """
    }

    /// A latency distribution's points on the chart's "nines" axis.
    private static func curve(_ points: [LoadResult.PercentilePoint]) -> [(x: Double, y: Double)] {
        points.map { (x: nines($0.percentile), y: $0.milliseconds) }
    }

    /// The percentile on a "number of nines" scale: 90 → 1, 99 → 2, 99.9 → 3
    /// (capped at 4: 99.99 and above, the maximum included, share the right edge).
    static func nines(_ percentile: Double) -> Double {
        let rest = 1 - percentile / 100
        return rest <= 1e-4 ? 4 : -log10(rest)
    }
}
