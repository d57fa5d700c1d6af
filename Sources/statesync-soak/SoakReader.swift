/// A reader: a `StateSyncClient` mirroring one path (one writer's counter,
/// or every counter for one reader in twenty), disconnected at random and
/// replaced by a new client with the same `clientId` each time.
actor SoakReader {
    /// The client of the moment.
    nonisolated let life: MirrorLife
    private let configuration: SoakConfiguration
    private let tally: SoakTally

    init(index: Int, url: String, writers: Int, configuration: SoakConfiguration, tally: SoakTally) {
        let path = index % 20 == 0 || writers == 0 ? "/counters" : "/counters/soak-w\(index % writers)"
        life = MirrorLife(url: url, clientID: "soak-r\(index)", path: path)
        self.configuration = configuration
        self.tally = tally
    }

    /// Mirrors until the run is finished, with random disconnects until it stops.
    func run(_ phase: SoakPhase) async {
        await life.start()
        while !phase.isStopping {
            await phase.pause(SoakPhase.randomWait(mean: configuration.disconnectEvery), untilStopping: true)
            guard !phase.isStopping else { break }
            await life.restart()
            tally.update { $0.disconnects += 1 }
        }
        while !phase.isFinished { await phase.pause(1) }
        await life.close()
    }
}
