import ArgumentParser

/// The `statesync` command: subcommands for serving and (later) for
/// reading and writing a running server's state.
@main
struct StateSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statesync",
        abstract: "A server-authoritative state store shared over WebSocket.",
        subcommands: [Serve.self]
    )
}
