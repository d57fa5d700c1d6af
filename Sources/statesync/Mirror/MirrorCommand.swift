import ArgumentParser
import BoardApp
import Foundation
import StateSyncClient
import StateSyncProtocol

/// `statesync mirror`: a live view of the board shared by every terminal
/// running it, with a command line to change it.
struct MirrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mirror",
        abstract: "A live full-screen view of the board (todos, counters, chat, presence) with a command line.",
        discussion: """
            Each panel observes its own slice of one local mirror of the whole state and is redrawn \
            only when that slice changes. Your own actions show at once (a todo marked (pending) until \
            the server acknowledges it; a rejected one disappears, the reason on the message line). Commands: \(BoardCommand.summary). \
            Leave with quit, Ctrl-C or Ctrl-D. Started before the server, it shows connecting… \
            and keeps retrying; after a drop it reconnects by itself. It speaks the board's app schema \
            version: a server that needs a newer one stops it (upgrade_required); in a cluster, a node \
            of an older one is left for the next URL.
            When stdin or stdout is not a terminal it prints one plain line per change instead \
            (todos: [ ] t3 Milk), until SIGINT or SIGTERM.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var store: StoreSelection

    @Option(help: "A file keeping the actions not yet acknowledged, sent again (applied once) when mirror restarts with it.")
    var outbox: String?

    func run() async throws {
        var configuration = connection.configuration(waitsForServer: true)
        configuration.schemaVersion = Board.schemaVersion   // it decodes the board's state and writes its actions
        if let outbox { configuration.outbox = .file(URL(filePath: outbox)) }
        do {
            if TerminalSession.isInteractive {
                try await FullScreenMirror(configuration: configuration, store: store.name).run()
            } else {
                try await PlainMirror(configuration: configuration, store: store.name).run()
            }
        } catch {
            throw CommandFailure(error)
        }
    }
}
