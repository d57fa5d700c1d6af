import Foundation

/// Runs a short-lived child process to its end, spawned and reaped here with
/// `posix_spawn` and `waitpid`.
///
/// Not Foundation's `Process`: on Linux its exit monitoring can miss a child
/// that exits within milliseconds (a tmux client, a command that fails at
/// once); the child stays a zombie and `waitUntilExit()` never returns.
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

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = variables.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }

        // The calling (dispatch) thread blocks most signals and a child inherits
        // its mask and ignored signals: start it with none blocked and defaults.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        guard spawned == 0 else { throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure(description: "waitpid \(pid): \(String(cString: strerror(errno)))") }
        }
        return Result(
            // WIFEXITED / WEXITSTATUS / WTERMSIG, macros Swift does not import.
            status: status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            output: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",   // no output file: nothing printed
            errors: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
