package import TestProcessSupport
import Foundation
import Testing

/// Runs `statesync` commands as child processes, as a user would.
package enum CLI {
    /// Runs `statesync arguments…` to the end.
    package static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Subprocess.Result {
        try await Subprocess.run([ServeProcess.executable.path] + arguments, environment: environment)
    }

    /// Runs `body` with a `statesync serve STORAGE --port 0 options…` child
    /// process (`storage` `--memory` unless given, e.g. `--data DIR`),
    /// given its URL; stops it with SIGTERM afterwards.
    package static func withServer<T>(
        _ options: [String] = [], storage: [String] = ["--memory"], _ body: (String) async throws -> T
    ) async throws -> T {
        let server = try ServeProcess(["serve"] + storage + ["--port", "0"] + options)
        guard let port = try await server.waitForPort() else {
            _ = await server.waitForExit()
            Issue.record("statesync serve did not start: \(server.standardError)")
            throw CancellationError()
        }
        let result: Swift.Result<T, any Error>
        do {
            result = .success(try await body("ws://127.0.0.1:\(port)/sync"))
        } catch {
            result = .failure(error)
        }
        server.send(SIGTERM)
        _ = await server.waitForExit()
        return try result.get()
    }
}

/// Polls `condition` every 50 ms until it holds or `timeout` passes: for
/// what cannot be awaited (another process's output, a tmux pane).
/// Returns whether it held.
package func eventually(within timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
