import Foundation
import StateSyncServer
import Synchronization

/// A `statesync serve` child process started by `bench --spawn-server`:
/// this same executable, on an OS-chosen loopback port, in memory or on a
/// data directory. Stopped with SIGTERM (a clean shutdown) at the end.
/// Every client connects from loopback, one address: the server's limits
/// per address (connections, joins) are raised to the number of clients.
final class SpawnedServer {
    /// What the child printed, collected from its pipes' reader threads.
    private final class Output: Sendable {
        let text = Mutex("")
        let errors = Mutex("")
    }

    private let process: Process
    private let output: Output
    /// The URL the child printed.
    let url: String

    /// Process id (for CPU and memory readings).
    var pid: Int32 { process.processIdentifier }

    /// Starts the server and waits (up to 30 s) until it prints its URL.
    init(data: String?, clients: Int) async throws(CommandFailure) {
        let process = Process()
        do {
            process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        } catch {
            throw CommandFailure(message: "--spawn-server: cannot find this executable to start the server (\(error))")
        }
        var arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--log-level", "warning"]
        arguments += data.map { ["--data", $0] } ?? ["--memory"]
        let connections = clients + 64
        arguments += [
            "--max-connections", "\(max(connections, ConnectionLimits().maxConnections))", "--max-connections-per-ip", "\(connections)",
            "--joins-per-second", "\(connections)", "--join-burst", "\(connections)",
        ]
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let output = Output()
        self.output = output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0 += text }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.errors.withLock { $0 += text }
        }
        do {
            try process.run()
        } catch {
            throw CommandFailure(message: "--spawn-server: cannot start \(process.executableURL?.path ?? "statesync") serve: \(error)")
        }
        self.process = process
        // The child's output cannot be awaited: poll it every 20 ms.
        let deadline = ContinuousClock.now + .seconds(30)
        var found: String?
        while found == nil, process.isRunning, ContinuousClock.now < deadline {
            found = output.text.withLock { text in
                text.split(separator: "\n").first { $0.hasPrefix("statesync listening on ") }
                    .map { String($0.dropFirst("statesync listening on ".count)) }
            }
            if found == nil { try? await Task.sleep(for: .milliseconds(20)) }  // not cancelled: the command runs to its end
        }
        guard let found else {
            let errors = output.errors.withLock { $0 }.trimmingCharacters(in: .whitespacesAndNewlines)
            if process.isRunning { process.terminate() }
            throw CommandFailure(message: "--spawn-server: the server did not start\(errors.isEmpty ? "" : ": \(errors)")")
        }
        url = found
    }

    /// What the server wrote on stderr (warnings and errors).
    var standardError: String { output.errors.withLock { $0 } }

    /// Sends SIGTERM and waits up to 15 s for a clean exit (then SIGKILL).
    /// Returns the exit status.
    func stop() async -> Int32 {
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(15)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))  // not cancelled: the command runs to its end
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }
}
