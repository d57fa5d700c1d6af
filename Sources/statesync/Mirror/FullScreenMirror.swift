import StateSyncClient
import StateSyncProtocol
import UnixSignals

/// `mirror` on a terminal: the full-screen view with its command line.
/// Resizes follow SIGWINCH; Ctrl-C, `quit`, SIGTERM and SIGHUP leave it,
/// and the terminal is restored on every way out.
struct FullScreenMirror {
    /// Where to connect.
    let configuration: StateSyncClientConfiguration
    /// The store to mirror.
    let store: StoreName

    /// Shows the view until the user leaves.
    func run() async throws {
        let client = StateSyncClient(configuration: configuration)
        let terminal = try TerminalSession()
        defer { terminal.restore() }
        // Trap SIGWINCH before reading the size: a resize in between (a pane
        // split right after the start) would otherwise leave a stale layout.
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm, .sighup, .sigwinch)
        let screen = Screen(size: TerminalSession.size(), url: configuration.url, write: TerminalOutput.write)
        let store = client.store(store)
        await screen.setStatus { $0.store = store.name }
        await screen.redrawAll()
        try await MirrorSession.run(
            store,
            onStatus: { change in await screen.setStatus { change.apply(to: &$0) } },
            onPanel: { panel in await screen.show(panel) },
            until: {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await signal in signals {
                            guard signal == .sigwinch else { return }
                            await screen.resize(to: TerminalSession.size())
                        }
                    }
                    group.addTask { await CommandLoop(store: store, screen: screen).run() }
                    try await group.next()
                    group.cancelAll()
                }
            })
    }
}
