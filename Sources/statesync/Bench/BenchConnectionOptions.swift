import ArgumentParser
import Foundation

/// Where `statesync bench` connects, with the same names and defaults as
/// the other client commands' options (`--url`, `--token`), so that a
/// shared option group can replace it.
struct BenchConnectionOptions: ParsableArguments {
    @Option(help: "The server's sync URL (default: $STATESYNC_URL, else ws://127.0.0.1:8080/sync).")
    var url: String = ProcessInfo.processInfo.environment["STATESYNC_URL"] ?? "ws://127.0.0.1:8080/sync"

    @Option(help: "The token sent in hello (a server with authentication needs a writer's).")
    var token: String?
}
