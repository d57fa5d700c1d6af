import StateSyncClient
import StateSyncProtocol
import UnixSignals

/// `mirror` when stdout is not a terminal: one plain line per component
/// change (`todos: [ ] t3 Milk`, `status: online`), until SIGINT or SIGTERM.
struct PlainMirror {
    /// Where to connect.
    let configuration: StateSyncClientConfiguration
    /// The store to mirror.
    let store: StoreName

    /// Prints changes until a signal.
    func run() async throws {
        let client = StateSyncClient(configuration: configuration)
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm, .sighup)
        let url = configuration.url, store = store
        try await MirrorSession.run(
            client.store(store),
            onStatus: { change in
                // Only connection changes: the revision moves with every component line.
                guard case .connection = change else { return }
                var bar = StatusBar(url: url, store: store)
                change.apply(to: &bar)
                printLine(bar.summary)
            },
            onPanel: { panel in printLine(panel.summary) },
            until: {
                for await _ in signals { return }
            })
    }
}
