import Foundation
import Testing

/// Runs `statesync` commands as child processes, as a user would.
package enum CLI {
    /// Runs `statesync arguments…` to the end.
    package static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Subprocess.Result {
        try await Subprocess.run([ServeProcess.executable.path] + arguments, environment: environment)
    }

    /// Runs `body` with a `statesync serve --memory --port 0 options…` child
    /// process, given its URL; stops it with SIGTERM afterwards.
    package static func withServer<T>(_ options: [String] = [], _ body: (String) async throws -> T) async throws -> T {
        let server = try ServeProcess(["serve", "--memory", "--port", "0"] + options)
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

    /// A loopback port nothing listens on (bound by the OS, then released).
    package static func unusedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
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
