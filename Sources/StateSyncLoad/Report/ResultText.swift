import Foundation

/// The plain-text forms of a ``LoadResult``: the final table and the one-line summary.
public enum ResultText {
    /// The `RESULT …` line: `key=value` pairs a script can split on spaces.
    ///
    /// ```
    /// RESULT clients=1000 actions_per_s=100.0 deliveries_per_s=100000.0 ack_p99_ms=2.10 delivery_p99_ms=12.40 gaps=0 errors=0
    /// ```
    ///
    /// A cluster adds `same_node_p99_ms`, `cross_node_p99_ms`; `--stores N`, `stores`,
    /// `slowest_store_p99_ms`; a reconnect storm, `storm_converged_s` (`none` when a
    /// client never resumed) and, with the server measured, `storm_rss_ratio`.
    public static func summaryLine(_ result: LoadResult) -> String {
        var more = ""
        if let same = result.sameNodeDeliveryLatency, let cross = result.crossNodeDeliveryLatency {
            more = " same_node_p99_ms=\(fixed(same.p99, 2)) cross_node_p99_ms=\(fixed(cross.p99, 2))"
        }
        if let stores = result.stores {
            more += " stores=\(stores.count) slowest_store_p99_ms=\(fixed(stores.slowest?.p99 ?? 0, 2))"
        }
        if let storm = result.reconnectStorm {
            more += " storm_converged_s=\(storm.convergedSeconds.map { fixed($0, 2) } ?? "none")"
            if let ratio = storm.serverRSSRatio { more += " storm_rss_ratio=\(fixed(ratio, 2))" }
        }
        return "RESULT clients=\(result.rampUp.connected) actions_per_s=\(fixed(result.rates.actionsPerSecond, 1))"
            + " deliveries_per_s=\(fixed(result.rates.deliveriesPerSecond, 1))"
            + " ack_p99_ms=\(fixed(result.ackLatency.p99, 2)) delivery_p99_ms=\(fixed(result.deliveryLatency.p99, 2))\(more)"
            + " gaps=\(result.counts.gaps) errors=\(result.counts.errors)"
    }

    /// The final table: latencies, tallies, rates and resources.
    public static func table(_ result: LoadResult) -> String {
        var lines: [String] = []
        let header = pad("latency (ms)", 14) + ["count", "p50", "p90", "p99", "p99.9", "max"].map { pad($0, 11, right: true) }.joined()
        lines.append(header)
        var rows = [("dispatch→ack", result.ackLatency), ("→delivery", result.deliveryLatency)]
        if let same = result.sameNodeDeliveryLatency, let cross = result.crossNodeDeliveryLatency {
            rows += [(" same node", same), (" other node", cross)]
        }
        for (name, summary) in rows {
            let values = [summary.p50, summary.p90, summary.p99, summary.p999, summary.max].map { pad(fixed($0, 2), 11, right: true) }
            lines.append(pad(name, 14) + pad(grouped(Int(summary.count)), 11, right: true) + values.joined())
        }
        let counts = result.counts
        let rates = result.rates
        lines.append("")
        lines.append("clients     \(grouped(result.rampUp.connected)) connected (\(result.rampUp.failed) failed) in "
            + "\(fixed(result.rampUp.seconds, 2)) s (\(grouped(Int(result.rampUp.connectionsPerSecond)))/s)")
        lines.append("actions     \(grouped(counts.actionsSent)) sent, \(grouped(counts.acked)) acked, "
            + "\(grouped(counts.rejected)) rejected, \(grouped(counts.actionsSkipped)) skipped"
            + "  (\(fixed(rates.actionsPerSecond, 1))/s)")
        lines.append("deliveries  \(grouped(counts.deliveries)) of \(grouped(counts.expectedDeliveries)) expected, "
            + "\(grouped(counts.patches)) patches  (\(fixed(rates.deliveriesPerSecond, 1))/s, "
            + "\(fixed(rates.bytesReceivedPerSecond / 1_000_000, 2)) MB/s received)")
        if let stores = result.stores {
            let slowest = stores.slowest.map { "slowest \($0.name): delivery p99 \(fixed($0.p99, 2)) ms" } ?? "no deliveries"
            let idle = stores.stores.filter { $0.deliveries == 0 }.count
            lines.append("stores      \(stores.count) (bench-0…), \(slowest)" + (idle > 0 ? ", \(idle) without deliveries" : ""))
        }
        if let storm = result.reconnectStorm { lines.append(stormLine(storm)) }
        lines.append("problems    \(counts.gaps) gaps, \(counts.errors) errors, \(counts.droppedConnections) dropped connections")
        let generator = result.generator
        lines.append("generator   \(fixed(generator.cpuPercent, 0)) % of one core (\(generator.cores) cores, "
            + "\(generator.threads) event loops), peak RSS \(megabytes(generator.peakRSSBytes))")
        if let server = result.server {
            lines.append("server      pid \(server.pid): \(fixed(server.cpuPercent, 0)) % of one core, "
                + "\(fixed(server.cpuMicrosecondsPerDelivery, 2)) µs CPU per delivery; RSS \(megabytes(server.rssBeforeBytes)) "
                + "before, \(megabytes(server.rssIdleBytes)) idle with all clients, \(megabytes(server.rssAfterBytes)) after "
                + "(\(grouped(server.bytesPerIdleConnection)) bytes per idle connection)")
            if !server.threads.isEmpty {
                lines.append("server      threads: " + server.threads.map { "\($0.name) \(fixed($0.cpuPercent, 0)) %" }.joined(separator: ", "))
            }
        }
        if !result.loadAverageBefore.isEmpty {
            lines.append("load avg    \(result.loadAverageBefore.map { fixed($0, 2) }.joined(separator: " ")) before, "
                + "\(result.loadAverageAfter.map { fixed($0, 2) }.joined(separator: " ")) after")
        }
        for (code, count) in result.rejectCodes.sorted(by: { $0.key < $1.key }) {
            lines.append("rejected    \(code): \(count)")
        }
        for problem in result.problems {
            lines.append("problem     \(problem)")
        }
        return lines.joined(separator: "\n")
    }

    private static func stormLine(_ storm: LoadResult.ReconnectStorm) -> String {
        let resumed = storm.convergedSeconds.map { "all resumed in \(fixed($0, 2)) s" } ?? "not all resumed"
        var line = "storm       \(grouped(storm.dropped)) dropped at \(fixed(storm.atSeconds, 1)) s: \(grouped(storm.reconnected)) reconnected "
            + "(\(storm.failed) failed), \(resumed) (\(grouped(storm.resumedByPatch)) subscriptions by patch, "
            + "\(grouped(storm.resumedBySnapshot)) by snapshot)"
        if let before = storm.serverRSSBeforeBytes, let peak = storm.serverRSSPeakBytes, let ratio = storm.serverRSSRatio {
            line += "; server RSS \(megabytes(before)) before, peak \(megabytes(peak)) (\(fixed(ratio, 2))x)"
        }
        return line
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(character)
        }
        return value < 0 ? "-" + text : text
    }

    static func megabytes(_ bytes: Int) -> String {
        "\(fixed(Double(bytes) / 1_048_576, 1)) MiB"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let room = max(0, width - text.count)
        return right ? String(repeating: " ", count: room) + text : text + String(repeating: " ", count: room)
    }
}
