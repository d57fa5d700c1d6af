import TestProcessSupport
import Foundation
import Testing
import StateSyncTestSupport

/// A private tmux server (its own socket, no user configuration) for
/// driving full-screen commands: start panes, type into them, read them.
/// ``kill()`` ends the server and everything in it.
struct Tmux: Sendable {
    /// The socket name (`tmux -L`), unique per test.
    let socket = "statesync-test-\(UUID().uuidString.prefix(12))"

    /// The tmux executable, or `nil` when it is not installed (scripts/test installs it).
    static let executable: URL? = Tools.onPath("tmux")

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

    /// Appends everything `target`'s program writes to its terminal from now
    /// on (escape sequences included) to `file`: what it showed, in order,
    /// however late the test looks.
    func record(_ target: String, to file: URL) throws {
        try run(["pipe-pane", "-o", "-t", target, "cat >> '\(file.path)'"])
    }

    /// The process id of the command running in `target`.
    func panePID(_ target: String) throws -> Int32 {
        let text = try run(["display-message", "-p", "-t", target, "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text) else { throw TmuxError(message: "tmux gave no pane pid for \(target): \(text)") }
        return pid
    }

    /// Keeps the server running when its last session ends (tmux's
    /// `exit-empty off`), so that a test can start a new session after
    /// killing the process of the only pane without racing the server's exit.
    func keepServerWhenEmpty() throws {
        try run(["set-option", "-s", "exit-empty", "off"])
    }

    /// Ends the server and every process in its panes.
    func kill() {
        _ = try? run(["kill-server"])   // already gone: nothing to end
    }

    /// Runs `tmux -L socket -f /dev/null -u arguments…` and returns its stdout.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw TmuxError(message: "tmux is not installed") }
        let result = try Subprocess.run([executable.path, "-L", socket, "-f", "/dev/null", "-u"] + arguments)
        guard result.status == 0 else {
            throw TmuxError(message: "tmux \(arguments.joined(separator: " ")) exited with \(result.status): \(result.errors)")
        }
        return result.output
    }
}

/// A tmux command that failed.
struct TmuxError: Error, CustomStringConvertible {
    /// What failed and tmux's own words.
    let message: String

    var description: String { message }
}
