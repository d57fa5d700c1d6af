import ArgumentParser
import Foundation

/// `statesync-soak`: many clients against a `statesync serve` SIGKILLed and restarted again and
/// again; every mirror must end equal to the server's state and every acked action be in it
/// (exit 1 otherwise). RELIABILITY.md, "Soak" has the recorded runs.
@main
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statesync-soak",
        abstract: "Soak a statesync server: clients, random disconnects, slow readers, SIGKILL and restart.")

    @Option(help: "The statesync executable to serve with (default: the one beside this executable).")
    var statesync: String?
    @Option(help: "The server's data directory, kept across restarts (default: a new temporary one, removed after).")
    var data: String?
    @Option(name: .customLong("serve-arg"), parsing: .unconditionalSingleValue,
            help: "An extra argument for statesync serve (e.g. a raised limit). Repeatable.")
    var serveArguments: [String] = []
    @Option(help: "Connections, all kinds together.")
    var clients = 1_000
    @Option(help: "Clients that dispatch (each increments its own counter).")
    var writers = 100
    @Option(help: "Clients that read slowly.")
    var slowReaders = 100
    @Option(help: "Seconds of load.")
    var duration: Double = 600
    @Option(help: "Seconds between server SIGKILLs (each followed by a restart).")
    var killEvery: Double = 60
    @Option(help: "Mean seconds between one client's random disconnects.")
    var disconnectEvery: Double = 60
    @Option(help: "Mean seconds between one writer's dispatches.")
    var dispatchEvery: Double = 1
    @Option(help: "Seconds a slow reader pauses after each message.")
    var slowReadDelay: Double = 0.2
    @Option(help: "Seconds every client may take to converge after the load.")
    var settleTimeout: Double = 120

    func run() async throws {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("statesync").path
        var configuration = SoakConfiguration(statesync: statesync ?? beside, dataDirectory: data)
        configuration.serveArguments = serveArguments
        configuration.clients = clients
        configuration.writers = writers
        configuration.slowReaders = slowReaders
        configuration.duration = duration
        configuration.killEvery = killEvery
        configuration.disconnectEvery = disconnectEvery
        configuration.dispatchEvery = dispatchEvery
        configuration.slowReadDelay = slowReadDelay
        configuration.settleTimeout = settleTimeout
        let report: SoakReport
        do {
            report = try await InterruptGuard.shared.guarding {
                try await SoakRun(configuration: configuration).execute { Self.say($0) }
            }
        } catch {
            Self.say("statesync-soak: \(error)")
            throw ExitCode(1)
        }
        Self.say(report.text)
        if !report.failures.isEmpty { throw ExitCode(1) }
    }

    /// Writes a line to stdout at once (a pipe would otherwise hold it until exit).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
