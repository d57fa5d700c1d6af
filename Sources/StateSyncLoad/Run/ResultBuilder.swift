import StateSyncProtocol

/// The server's samples: before connecting, idle with every client, and
/// around the measured phase.
struct ServerSamples: Sendable {
    var pid: Int32?
    var before: ServerProbe.Sample?
    var idle: ServerProbe.Sample?
    var start: ServerProbe.Sample?
    var end: ServerProbe.Sample?
}

/// Assembles a ``LoadResult`` from a run's parts.
struct ResultBuilder {
    let scenario: LoadScenario
    let shared: RunShared
    let startedAt: String
    let loadBefore: [Double]
    let ramp: RampOutcome
    let measured: MeasuredRun
    let totals: [LoopTotals]
    let server: ServerSamples

    /// The percentiles the distribution chart plots.
    static let curve: [Double] = [0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100]

    func build() -> LoadResult {
        var ack = LatencyHistogram()
        var delivery = LatencyHistogram()
        var sameNode = LatencyHistogram()
        var crossNode = LatencyHistogram()
        var byStore = Array(repeating: LatencyHistogram(), count: scenario.stores > 1 ? scenario.stores : 0)
        for loop in totals {
            ack.add(loop.ack)
            delivery.add(loop.delivery)
            sameNode.add(loop.sameNode)
            crossNode.add(loop.crossNode)
            for (store, histogram) in loop.byStore.enumerated() { byStore[store].add(histogram) }
        }
        // Split by node only when there are several: with one, "same node" is every delivery.
        let clustered = scenario.urls.count > 1
        let counters = shared.counters
        let counts = LoadResult.Counts(
            actionsSent: counters.sent.current, actionsSkipped: counters.skipped.current,
            acked: counters.acked.current, rejected: counters.rejected.current,
            patches: counters.patches.current, deliveries: counters.deliveries.current,
            expectedDeliveries: counters.expectedDeliveries.current, gaps: counters.gaps.current,
            errors: counters.errors.current, droppedConnections: counters.dropped.current,
            bytesReceived: counters.bytesReceived.current, bytesSent: counters.bytesSent.current)
        let run = measured.runSeconds
        let connected = ramp.clients.count
        return LoadResult(
            scenario: .init(
                url: scenario.urls.joined(separator: ","), clients: scenario.clients, writers: scenario.writers, rate: scenario.rate,
                durationSeconds: run, subscriptions: scenario.subscriptions.map(\.description),
                action: scenario.action.action.description, actionPath: scenario.action.path.description,
                threads: scenario.threads),
            rampUp: .init(
                seconds: ramp.seconds, connected: connected, failed: counters.failedConnects.current,
                connectionsPerSecond: ramp.seconds > 0 ? Double(connected) / ramp.seconds : 0),
            counts: counts,
            rates: .init(
                runSeconds: run, actionsPerSecond: Double(counts.acked) / run,
                deliveriesPerSecond: Double(counts.deliveries) / run, patchesPerSecond: Double(counts.patches) / run,
                bytesReceivedPerSecond: Double(counts.bytesReceived) / run),
            ackLatency: .init(ack), deliveryLatency: .init(delivery),
            sameNodeDeliveryLatency: clustered ? .init(sameNode) : nil,
            crossNodeDeliveryLatency: clustered ? .init(crossNode) : nil,
            ackDistribution: Self.curve(of: ack), deliveryDistribution: Self.curve(of: delivery),
            sameNodeDeliveryDistribution: clustered ? Self.curve(of: sameNode) : nil,
            crossNodeDeliveryDistribution: clustered ? Self.curve(of: crossNode) : nil,
            timeline: measured.timeline,
            generator: .init(
                cpuSeconds: measured.ownCPUSeconds,
                cpuPercent: measured.measuredSeconds > 0 ? measured.ownCPUSeconds / measured.measuredSeconds * 100 : 0,
                peakRSSBytes: ProcessResources.ownPeakRSSBytes(), threads: scenario.threads, cores: ProcessResources.coreCount),
            server: serverUsage(connected: connected, deliveries: counts.deliveries),
            problems: shared.problems.messages, rejectCodes: shared.problems.rejectCodes,
            loadAverageBefore: loadBefore, loadAverageAfter: ProcessResources.loadAverage(),
            startedAt: startedAt, stores: storesSummary(byStore: byStore, all: delivery),
            reconnectStorm: reconnectStorm())
    }

    private func reconnectStorm() -> LoadResult.ReconnectStorm? {
        guard let storm = measured.storm else { return nil }
        let counters = shared.counters
        return LoadResult.ReconnectStorm(
            atSeconds: storm.atSeconds, dropped: storm.dropped,
            reconnected: counters.reconnected.current, failed: counters.failedReconnects.current,
            convergedSeconds: storm.convergedSeconds,
            resumedByPatch: counters.resumedByPatch.current, resumedBySnapshot: counters.resumedBySnapshot.current,
            serverRSSBeforeBytes: storm.serverRSSBeforeBytes, serverRSSPeakBytes: storm.serverRSSPeakBytes)
    }

    /// Each store's delivery latency; with one store (`--stores 1`) it is the run's own.
    private func storesSummary(byStore: [LatencyHistogram], all: LatencyHistogram) -> LoadResult.StoresSummary? {
        guard scenario.stores > 0 else { return nil }
        let histograms = scenario.stores == 1 ? [all] : byStore
        return LoadResult.StoresSummary(count: scenario.stores, stores: histograms.enumerated().map { number, histogram in
            LoadResult.StoresSummary.Store(
                name: scenario.storeName(number).rawValue, deliveries: histogram.count, p99: histogram.milliseconds(atPercentile: 99))
        })
    }

    private func serverUsage(connected: Int, deliveries: Int) -> LoadResult.ServerUsage? {
        guard let pid = server.pid, let before = server.before, let idle = server.idle,
              let start = server.start, let end = server.end
        else { return nil }
        let cpu = end.cpuSeconds - start.cpuSeconds
        return LoadResult.ServerUsage(
            pid: pid, cpuSeconds: cpu,
            cpuPercent: measured.measuredSeconds > 0 ? cpu / measured.measuredSeconds * 100 : 0,
            rssBeforeBytes: before.rssBytes, rssIdleBytes: idle.rssBytes, rssAfterBytes: end.rssBytes,
            bytesPerIdleConnection: connected > 0 ? (idle.rssBytes - before.rssBytes) / connected : 0,
            cpuMicrosecondsPerDelivery: deliveries > 0 ? cpu * 1e6 / Double(deliveries) : 0,
            threads: ThreadCPU.shares(from: start.threads, to: end.threads, over: measured.measuredSeconds))
    }

    private static func curve(of histogram: LatencyHistogram) -> [LoadResult.PercentilePoint] {
        guard histogram.count > 0 else { return [] }
        return curve.map { LoadResult.PercentilePoint(percentile: $0, milliseconds: histogram.milliseconds(atPercentile: $0)) }
    }
}
