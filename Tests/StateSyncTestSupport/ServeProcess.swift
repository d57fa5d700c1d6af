package import Foundation
import ProcessSpawning
import TestProcessSupport
package import Testing

/// A child process: by default the real `statesync` executable (built
/// beside the test bundle by `swift build --build-tests`).
package final class ServeProcess: @unchecked Sendable {
    // @unchecked: `process` and the pipes are set up in `init` and only read
    // afterwards; `output` is guarded by `lock`.
    private let process: SpawnedChild
    /// The readers of the child's stdout and stderr (set once, in `init`).
    private var stdout: PipeReader?
    private var stderr: PipeReader?
    private let lock = NSLock()
    private var output = ""
    private var errors = ""
    /// Waiters for a condition on stdout, resumed by the readability handler.
    private var outputWaiters: [(predicate: @Sendable (String) -> Bool, continuation: CheckedContinuation<String, Never>)] = []

    /// The executable next to the running test binary.
    package static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("statesync")
    }

    /// Starts `executable` (default `statesync`) with `arguments`, and with
    /// `environment` added to the test's own.
    ///
    /// A `serve` gets a request and a hello timeout of 60 s unless the test
    /// sets them: a test starved on a loaded machine (the whole suite at once
    /// on two cores) can take more than the default 10 s between connecting
    /// and sending its upgrade or its `hello`, and the server rightly closes
    /// such a connection.
    package init(_ arguments: [String], executable: URL = ServeProcess.executable, environment: [String: String] = [:]) throws {
        var environment = environment
        if arguments.first == "serve" {
            for variable in ["STATESYNC_HELLO_TIMEOUT", "STATESYNC_REQUEST_TIMEOUT"] where environment[variable] == nil {
                environment[variable] = "60"
            }
        }
        process = try SpawnedChild(
            [executable.path] + arguments, environment: environment, standardOutput: .pipe, standardError: .pipe)
        // Both outputs were asked for as pipes: both reading ends exist.
        stdout = PipeReader(process.standardOutput!) { [weak self] data in
            self?.received(String(decoding: data, as: UTF8.self), ended: false)
        }
        stderr = PipeReader(process.standardError!) { [weak self] data in
            let text = String(decoding: data, as: UTF8.self)
            self?.lock.withLock { self?.errors += text }
        }
    }

    /// A child still running when its test lets go of it (a test that failed
    /// before it stopped the child) is killed: no server outlives its test;
    /// its output is no longer read.
    deinit {
        if process.isRunning { process.send(SIGKILL) }
    }

    /// Adds stdout text and resumes the waiters it satisfies (all of them
    /// once the output `ended`, so none waits for a process that is gone).
    private func received(_ text: String, ended: Bool) {
        let ready: [(CheckedContinuation<String, Never>, String)] = lock.withLock {
            output += text
            var ready: [(CheckedContinuation<String, Never>, String)] = []
            outputWaiters.removeAll { waiter in
                guard ended || waiter.predicate(output) else { return false }
                ready.append((waiter.continuation, output))
                return true
            }
            return ready
        }
        for (continuation, output) in ready { continuation.resume(returning: output) }
    }

    /// Waits until stdout satisfies `predicate` (or the process has exited)
    /// and returns it.
    package func waitForOutput(where predicate: @escaping @Sendable (String) -> Bool) async -> String {
        await withCheckedContinuation { continuation in
            let now: String? = lock.withLock {
                if predicate(output) || !process.isRunning { return output }
                outputWaiters.append((predicate, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Whether the child has not exited yet.
    package var isRunning: Bool { process.isRunning }

    /// The child's process id.
    package var processIdentifier: Int32 { process.processIdentifier }

    /// The child's resident memory in bytes (Linux: `VmRSS` of `/proc/PID/status`).
    package var residentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1_024
    }

    /// Everything printed on stdout so far.
    package var standardOutput: String { lock.withLock { output } }
    /// Everything printed on stderr so far.
    package var standardError: String { lock.withLock { errors } }

    /// The port of the `statesync listening on ws://…:PORT/sync` line, once printed
    /// (polls every 20 ms: a child's output cannot be awaited otherwise); `nil` if it exited first.
    package func waitForPort() async throws -> Int? {
        while process.isRunning {
            if let line = standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("statesync listening on ") }),
               let port = line.split(separator: ":").last?.split(separator: "/").first.flatMap({ Int($0) }) {
                return port
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Sends `signal` (SIGKILL, SIGTERM).
    package func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the process to exit, collects the rest of its output, and returns its status.
    package func waitForExit() async -> Int32 {
        let status = await process.exitStatus
        await stdout?.waitUntilEnded()
        await stderr?.waitUntilEnded()
        received("", ended: true)
        return status
    }
}

extension ServeProcess {
    /// `statesync serve --memory --port 0 options…`, listening: the process
    /// and its port (the test fails, with the server's stderr, when it prints none).
    package static func serving(
        _ options: [String] = [], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (ServeProcess, Int) {
        let server = try ServeProcess(["serve", "--memory", "--port", "0"] + options, environment: environment)
        let port = try #require(try await server.waitForPort(), "no URL printed: \(server.standardError)", sourceLocation: sourceLocation)
        return (server, port)
    }

    /// Stops the server with SIGTERM and expects a clean exit (status 0).
    package func stop(sourceLocation: SourceLocation = #_sourceLocation) async {
        send(SIGTERM)
        #expect(await waitForExit() == 0, "\(standardError)", sourceLocation: sourceLocation)
    }
}
