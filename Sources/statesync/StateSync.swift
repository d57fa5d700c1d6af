import ArgumentParser

/// The `statesync` command, with the subcommands of `configuration` (docs/cli.md).
/// Exit codes: 0 success (a clean shutdown on SIGTERM/SIGINT too), 1 a runtime failure,
/// 2 a usage error (an unknown flag, a bad value, a configuration `serve` refuses).
@main
struct StateSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statesync",
        abstract: "A server-authoritative state store shared over WebSocket.",
        version: "0.1.0",
        subcommands: [Serve.self, Get.self, Watch.self, Dispatch.self, MirrorCommand.self, Stores.self, Bench.self, Verify.self, Migrate.self]
    )

    /// Parses, runs, and maps failures to the documented exit codes.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }   // --help, --version
            printError(fullMessage(for: error))
            terminate(2)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let failure as CommandFailure {
            printError("statesync: \(failure.message)")
            terminate(1)
        } catch let error as ConfigurationError {
            printError("statesync: \(error)")
            terminate(2)
        } catch {
            exit(withError: error)
        }
    }
}
