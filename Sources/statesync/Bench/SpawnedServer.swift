import Foundation
import ProcessSpawning
import StateSyncServer

/// A `statesync serve` child of `bench --spawn-server` on an OS-chosen loopback port,
/// stopped with SIGTERM. Every client connects from loopback, so its per-address and
/// store limits are raised to the run's numbers of clients and stores.
final class SpawnedServer {
    private let process: SpawnedChild
    /// What the child printed on stderr.
    private let errors: CollectedOutput
    /// The URL the child printed.
    let url: String

    /// Process id (for CPU and memory readings).
    var pid: Int32 { process.processIdentifier }

    /// Starts the server for `clients` over `stores` stores (0: `main`
    /// only) and waits (up to 30 s) until it prints its URL.
    init(data: String?, clients: Int, stores: Int) async throws(CommandFailure) {
        let executable: String
        do {
            executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
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
        if stores > 0 {
            // Each store is created by its first client, from the same address; `main` stays open too.
            let defaults = StoreDirectoryConfiguration()
            arguments += [
                "--store-creations-per-second", "\(max(stores, defaults.creationsPerSecondPerAddress))",
                "--max-resident-stores", "\(max(stores + 1, defaults.maxResidentStores))",
            ]
        }
        let process: SpawnedChild
        do {
            process = try SpawnedChild([executable] + arguments, standardOutput: .pipe, standardError: .pipe)
        } catch {
            throw CommandFailure(message: "--spawn-server: \(error)")
        }
        // Both outputs were asked for as pipes: both reading ends exist.
        let output = CollectedOutput(process.standardOutput!)
        let errors = CollectedOutput(process.standardError!)
        (self.process, self.errors) = (process, errors)
        // The child's output cannot be awaited: poll it every 20 ms.
        let deadline = ContinuousClock.now + .seconds(30)
        var found: String?
        while found == nil, process.isRunning, ContinuousClock.now < deadline {
            found = output.text.split(separator: "\n").first { $0.hasPrefix("statesync listening on ") }
                .map { String($0.dropFirst("statesync listening on ".count)) }
            if found == nil { try? await Task.sleep(for: .milliseconds(20)) }  // not cancelled: the command runs to its end
        }
        guard let found else {
            _ = await process.stop(killingAfter: .seconds(15))
            let printed = errors.text.trimmingCharacters(in: .whitespacesAndNewlines)
            throw CommandFailure(message: "--spawn-server: the server did not start\(printed.isEmpty ? "" : ": \(printed)")")
        }
        url = found
    }

    /// What the server wrote on stderr (warnings and errors).
    var standardError: String { errors.text }

    /// Sends SIGTERM and waits up to 15 s for a clean exit (then SIGKILL).
    /// Returns the exit status.
    func stop() async -> Int32 {
        await process.stop(killingAfter: .seconds(15))
    }
}
