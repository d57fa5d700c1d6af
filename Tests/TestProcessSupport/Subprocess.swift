import Foundation
import ProcessSpawning

/// Runs a short-lived child process to its end (a ``SpawnedChild``, not
/// Foundation's `Process`: see there why).
///
/// Output goes through temporary files rather than pipes, because a tmux
/// server started by a command would keep inherited pipes open.
package enum Subprocess {
    /// What a finished process left behind.
    package struct Result: Sendable {
        /// The exit status (128 + N when killed by signal N).
        package var status: Int32
        /// Everything on stdout.
        package var output: String
        /// Everything on stderr.
        package var errors: String
    }

    /// Why a process could not be run.
    package struct Failure: Error, CustomStringConvertible {
        /// What failed.
        package let description: String
    }

    /// Runs `argv` (stdin from /dev/null, `environment` added to the test's
    /// own) on a thread of its own (``onOwnThread(_:)``), so no task waits.
    package static func run(_ argv: [String], environment: [String: String] = [:]) async throws -> Result {
        try await onOwnThread { try run(argv, environment: environment) }
    }

    /// Runs `argv`, blocking the calling thread (for commands of a few milliseconds).
    package static func run(_ argv: [String], environment: [String: String] = [:]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statesync-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }   // best effort: a temporary directory
        let outputPath = directory.appendingPathComponent("out").path
        let errorPath = directory.appendingPathComponent("err").path

        let child = try SpawnedChild(
            argv, environment: environment, standardOutput: .file(outputPath), standardError: .file(errorPath))
        let status = child.waitUntilExit()
        return Result(
            status: status,
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",   // no output file: nothing printed
            errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
