import ArgumentParser
import StateSyncClient

/// `statesync mirror`: a live view of the board shared by every terminal
/// running it, with a command line to change it.
struct MirrorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mirror",
        abstract: "A live full-screen view of the board (todos, counters, chat, presence) with a command line.",
        discussion: """
            Each panel observes its own slice of one local mirror of the whole state and is redrawn \
            only when that slice changes. Commands: \(BoardCommand.summary). \
            Leave with quit, Ctrl-C or Ctrl-D. Started before the server, it shows connecting… \
            and keeps retrying; after a drop it reconnects by itself.
            When stdin or stdout is not a terminal it prints one plain line per change instead \
            (todos: [ ] t3 Milk), until SIGINT or SIGTERM.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let configuration = connection.configuration(waitsForServer: true)
        do {
            if TerminalSession.isInteractive {
                try await FullScreenMirror(configuration: configuration).run()
            } else {
                try await PlainMirror(configuration: configuration).run()
            }
        } catch {
            throw CommandFailure(error)
        }
    }
}
