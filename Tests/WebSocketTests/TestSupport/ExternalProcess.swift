import Foundation
import ProcessSpawning
import TestProcessSupport

/// Runs programs written elsewhere (Python, Node) for interop tests.
enum ExternalProcess {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    struct Output: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The absolute path of `name` in the repository's `.venv` (made by scripts/test)
    /// or on `PATH`, or a `Missing` error telling how to get it.
    static func locate(_ name: String, hint: String) throws -> String {
        guard let tool = Tools.tool(name) else {
            throw Missing(description: "\(name) not found in .venv/bin or on PATH: \(hint)")
        }
        return tool.path
    }

    /// Runs `executable` with `arguments` to completion, killing it after `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 20) async throws -> Output {
        let process = try SpawnedChild([executable] + arguments, standardOutput: .pipe, standardError: .pipe)
        // Both outputs were asked for as pipes: both reading ends exist.
        let (out, err) = (process.standardOutput!, process.standardError!)
        let killer = DispatchWorkItem { process.send(SIGTERM) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        async let stdout = blocking { out.readDataToEndOfFile() }
        async let stderr = blocking { err.readDataToEndOfFile() }
        let (stdoutData, stderrData) = await (stdout, stderr)
        let status = await process.exitStatus
        killer.cancel()
        return Output(
            status: status,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Starts a long-running `executable` and returns it with the first line it prints.
    static func start(_ executable: String, _ arguments: [String]) async throws -> (SpawnedChild, String) {
        let process = try SpawnedChild(
            [executable] + arguments, standardOutput: .pipe, standardError: .descriptor(FileHandle.standardError.fileDescriptor))
        let out = process.standardOutput!   // asked for as a pipe: its reading end exists
        let line = await blocking { () -> String in
            var bytes: [UInt8] = []
            while true {
                let byte = out.readData(ofLength: 1)
                guard let first = byte.first, first != UInt8(ascii: "\n") else { break }
                bytes.append(first)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return (process, line)
    }

    /// Runs blocking work on a thread of its own (``onOwnThread(_:)``).
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await onOwnThread(work)
    }

    /// python3 that can `import websockets`, or a `Missing` error.
    static func pythonWithWebsockets() async throws -> String {
        let hint = "scripts/test installs it into the repository's .venv (or: python3 -m pip install 'websockets>=13')"
        let python = try locate("python3", hint: hint)
        let check = try await run(python, ["-c", "import websockets"])
        guard check.status == 0 else { throw Missing(description: "\(python) cannot import the Python module websockets: \(hint)") }
        return python
    }

    /// Node 20+ with a global `WebSocket` (behind --experimental-websocket on 20 and 21).
    static func nodeWithWebSocket() async throws -> (path: String, flags: [String]) {
        let node = try locate("node", hint: "install Node.js 20 or later")
        for flags in [[], ["--experimental-websocket"]] {
            let probe = try await run(node, flags + ["-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)"])
            if probe.status == 0 { return (node, flags) }
        }
        throw Missing(description: "node at \(node) has no global WebSocket: Node 20 or later is needed")
    }
}
