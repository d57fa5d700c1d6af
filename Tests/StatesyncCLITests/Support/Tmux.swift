import Foundation
import Testing

/// A private tmux server (its own socket, no user configuration) for
/// driving full-screen commands: start panes, type into them, read them.
/// ``kill()`` ends the server and everything in it.
struct Tmux: Sendable {
    /// The socket name (`tmux -L`), unique per test.
    let socket = "statesync-test-\(UUID().uuidString.prefix(12))"

    /// The tmux executable, or `nil` when it is not installed (scripts/test installs it).
    static let executable: URL? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Starts a detached session `name` of `columns`×`rows` running `command`.
    func newSession(_ name: String, columns: Int, rows: Int, command: String) throws {
        try run(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command])
    }

    /// Splits `target` top/bottom, running `command` in the new pane.
    func splitVertically(_ target: String, command: String) throws {
        try run(["split-window", "-v", "-t", target, command])
    }

    /// Types `keys` into `target` (tmux key names such as `Enter`, `C-c`; `literal` text otherwise).
    func send(_ target: String, keys: [String], literal: Bool = false) throws {
        try run(["send-keys", "-t", target] + (literal ? ["-l"] : []) + keys)
    }

    /// Resizes the window of `target`.
    func resize(_ target: String, columns: Int, rows: Int) throws {
        try run(["resize-window", "-t", target, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The visible text of `target`.
    func capture(_ target: String) throws -> String {
        try run(["capture-pane", "-p", "-t", target])
    }

    /// The visible text of `target` for a failure message (or why it cannot be read).
    func show(_ target: String) -> Comment {
        do {
            return Comment(rawValue: try capture(target))
        } catch {
            return Comment(rawValue: "\(error)")
        }
    }

    /// Ends the server and every process in its panes.
    func kill() {
        _ = try? run(["kill-server"])   // already gone: nothing to end
    }

    /// Runs `tmux -L socket -f /dev/null -u arguments…` and returns its stdout.
    ///
    /// Spawned and reaped here with `posix_spawn` and `waitpid` rather than
    /// Foundation's `Process`, whose exit monitoring on Linux can miss a
    /// child that exits as fast as a tmux client does (it stays a zombie and
    /// `waitUntilExit()` never returns). Output goes through temporary files:
    /// a tmux server started by the command keeps inherited pipes open.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TmuxError(message: "tmux is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }   // best effort: a temporary directory
        let outputPath = directory.appendingPathComponent("out").path
        let errorPath = directory.appendingPathComponent("err").path
        let argv = [executable.path, "-L", socket, "-f", "/dev/null", "-u"] + arguments
        let status = try Self.spawnAndWait(argv, stdout: outputPath, stderr: errorPath)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) exited with \(status): \(errors)")
        }
        return output
    }

    /// Runs `argv` with stdin from /dev/null and stdout, stderr to files; returns its exit status.
    private static func spawnAndWait(_ argv: [String], stdout: String, stderr: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw TmuxError(message: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TmuxError(message: "waitpid: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS (macros Swift does not import).
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}

/// A tmux command that failed.
struct TmuxError: Error, CustomStringConvertible {
    /// What failed and tmux's own words.
    let message: String

    var description: String { message }
}
