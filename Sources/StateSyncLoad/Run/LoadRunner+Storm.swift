import NIOCore
import WebSocket

/// What the reconnect storm did (see ``LoadScenario/reconnectStormAt``).
struct StormOutcome: Sendable {
    /// Seconds into the measured run when every connection was dropped.
    var atSeconds: Double
    /// Connections dropped.
    var dropped: Int
    /// The clients whose connection opened again, by index.
    var clients: [ConnectedClient]
    /// From the drop until every reconnected client resumed every
    /// subscription; `nil` when some never did.
    var convergedSeconds: Double?
    /// The server's resident set just before the drop, and the most it
    /// held (sampled every 100 ms) until the storm converged.
    var serverRSSBeforeBytes: Int?
    var serverRSSPeakBytes: Int?
}

extension LoadRunner {
    /// Drops every connection at once, reopens them (paced as the ramp-up) and waits
    /// until every reconnected client has resumed its subscriptions, sampling server
    /// memory meanwhile. Clients that cannot reconnect are abandoned.
    func reconnectStorm(
        _ clients: [ConnectedClient], at seconds: Double, shared: RunShared, probe: ServerProbe?
    ) async -> StormOutcome {
        let peak = probe.map { probe in Task { await Self.peakRSS(of: probe.pid) } }
        let before = probe.flatMap { ProcessResources.rssBytes(pid: $0.pid) }
        let start = ContinuousClock.now
        for client in clients {
            let handler = client.handler
            client.loop.execute { handler.client.value.drop() }
        }
        for client in clients {
            try? await client.outbound.channel.closeFuture.get()
        }
        let reopened = await openPaced(clients.count) { position in
            let client = clients[position]
            do {
                let outbound = try await open(client.index, handler: client.handler, loop: client.loop)
                shared.counters.reconnected.bump()
                return ConnectedClient(index: client.index, loop: client.loop, handler: client.handler, outbound: outbound)
            } catch {
                shared.counters.failedReconnects.bump()
                shared.problems.note("client \(client.index): cannot reconnect after the storm: \(error)")
                let handler = client.handler
                client.loop.execute { handler.client.value.abandon() }
                return nil
            }
        }
        let converged = await waitUntil(reopened.count) { shared.counters.resumed.current }
        let elapsed = start.duration(to: .now).inSeconds
        peak?.cancel()
        if !converged {
            let missing = reopened.count - shared.counters.resumed.current
            shared.problems.note("\(missing) reconnected clients never resumed their subscriptions after the storm")
            shared.counters.errors.bump(missing)
        }
        return StormOutcome(
            atSeconds: seconds, dropped: clients.count, clients: reopened,
            convergedSeconds: converged ? elapsed : nil,
            serverRSSBeforeBytes: before, serverRSSPeakBytes: await peak?.value)
    }

    /// The largest resident set of process `pid`, sampled every 100 ms
    /// until the task is cancelled.
    private static func peakRSS(of pid: Int32) async -> Int? {
        var peak: Int?
        while !Task.isCancelled {
            if let rss = ProcessResources.rssBytes(pid: pid) { peak = max(peak ?? 0, rss) }
            try? await Task.sleep(for: .milliseconds(100))
        }
        if let rss = ProcessResources.rssBytes(pid: pid) { peak = max(peak ?? 0, rss) }
        return peak
    }
}
