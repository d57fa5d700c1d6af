import StateSyncClient
import StateSyncCore

/// A `StateSyncClient` that increments its own counter one action at a time and reconnects with
/// the same `clientId` after disconnects and server kills. The counter must end at its start
/// value plus the acks: smaller means an acked action lost, larger one applied twice.
actor SoakWriter {
    /// The counter's name, `soak-w<index>`.
    nonisolated let name: String
    /// The path the writer subscribes to and the checks read.
    nonisolated var path: String { "/counters/\(name)" }
    private let configuration: SoakConfiguration
    private let url: String
    private let tally: SoakTally
    /// The client of the moment.
    nonisolated let life: MirrorLife
    /// Actions acknowledged (each exactly one increment of the counter).
    private(set) var acked = 0
    /// Whether the load is over for this writer: its last dispatch is answered.
    private(set) var settled = false

    init(index: Int, url: String, configuration: SoakConfiguration, tally: SoakTally) {
        name = "soak-w\(index)"
        self.url = url
        self.configuration = configuration
        self.tally = tally
        life = MirrorLife(url: url, clientID: name, path: "/counters/soak-w\(index)")
    }

    /// Dispatches until the run stops (then finishes the last dispatch), and
    /// stays connected until it is finished.
    func run(_ phase: SoakPhase) async {
        await life.start()
        var nextDisconnect = ContinuousClock.now + .seconds(SoakPhase.randomWait(mean: configuration.disconnectEvery))
        while !phase.isStopping {
            do {
                let client = await life.client
                try await client.dispatch(["type": "increment", "counter": .string(name), "by": 1])
                acked += 1
                tally.update { $0.acked += 1 }
            } catch {
                tally.update { $0.rejected += 1 }
                tally.problem("\(name): dispatch failed: \(error)")
            }
            await phase.pause(SoakPhase.randomWait(mean: configuration.dispatchEvery), untilStopping: true)
            if ContinuousClock.now >= nextDisconnect, !phase.isStopping {
                await life.restart()
                tally.update { $0.disconnects += 1 }
                nextDisconnect = ContinuousClock.now + .seconds(SoakPhase.randomWait(mean: configuration.disconnectEvery))
            }
        }
        settled = true
        while !phase.isFinished { await phase.pause(1) }
        await life.close()
    }
}
