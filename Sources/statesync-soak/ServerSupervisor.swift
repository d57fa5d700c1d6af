import Foundation
import ProcessSpawning

/// The `statesync serve` child of a soak run: started on a data directory,
/// SIGKILLed and started again on the same directory and port, its resident
/// memory read from `/proc`.
final class ServerSupervisor {
    private let configuration: SoakConfiguration
    private let dataDirectory: String
    private var process: SpawnedChild?
    /// What the current child printed (stdout and stderr), `nil` before the first start.
    private var output: CollectedOutput?
    /// The port of the first start, kept for every restart.
    private(set) var port = 0
    /// How many times the server was started (1 + restarts).
    private(set) var starts = 0

    init(configuration: SoakConfiguration, dataDirectory: String) {
        self.configuration = configuration
        self.dataDirectory = dataDirectory
    }

    /// The server's WebSocket URL.
    var url: String { "ws://127.0.0.1:\(port)/sync" }

    /// Starts the server (port 0 the first time, then the same port) and
    /// waits until it listens. Recovery of a large journal takes a while:
    /// up to 60 s are allowed.
    func start() async throws(SoakFailure) {
        // Every client comes from 127.0.0.1, and all of them rejoin at once
        // after each kill: the per-address limits (meant for people) are
        // raised to twice the clients; `--serve-arg` may still override them.
        let perAddress = "\(2 * configuration.clients)"
        let arguments = ["serve", "--host", "127.0.0.1", "--port", "\(port)", "--data", dataDirectory,
                         "--log-level", "error", "--max-connections-per-ip", perAddress,
                         "--joins-per-second", perAddress, "--join-burst", perAddress] + configuration.serveArguments
        let process: SpawnedChild
        do {
            process = try SpawnedChild([configuration.statesync] + arguments, standardOutput: .pipe, standardError: .standardOutput)
        } catch {
            throw .cannotStart(configuration.statesync, reason: error.reason)
        }
        let output = CollectedOutput(process.standardOutput!)   // asked for as a pipe: its reading end exists
        self.process = process
        self.output = output
        InterruptGuard.shared.serverStarted(process.processIdentifier)
        starts += 1
        // The child's output cannot be awaited: poll it every 20 ms.
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            if let listening = Self.listeningPort(in: output.text) {
                port = listening
                return
            }
            try? await Task.sleep(for: .milliseconds(20))  // never cancelled
        }
        let printed = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        process.send(SIGKILL)
        throw .didNotStart(start: starts, output: printed)
    }

    /// SIGKILLs the server and waits until it is gone.
    func kill() async {
        guard let process else { return }
        process.send(SIGKILL)
        _ = await process.exitStatus
        InterruptGuard.shared.serverStarted(0)
        self.process = nil
    }

    /// Stops the server with SIGTERM (a clean shutdown) at the end of the run.
    func stop() async {
        guard let process else { return }
        _ = await process.stop(killingAfter: .seconds(20))
        InterruptGuard.shared.serverStarted(0)
        self.process = nil
    }

    /// Whether the current child still runs (an unexpected exit is a failure).
    var isRunning: Bool { process?.isRunning ?? false }

    /// What the current child printed.
    var printed: String { output?.text ?? "" }

    /// The server's resident memory in KiB (`VmRSS`), or `nil` when it is not running.
    var residentKiB: Int? {
        guard let pid = process?.processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// The port of the `statesync listening on ws://HOST:PORT/sync` line.
    private static func listeningPort(in output: String) -> Int? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("statesync listening on ") }) else { return nil }
        return line.split(separator: ":").last?.split(separator: "/").first.flatMap { Int($0) }
    }
}
