package import Foundation

/// Programs the tests run that were not built here (python3, node, tmux,
/// chromium, openssl), found the way scripts/test installs them.
package enum Tools {
    /// The repository's virtual environment (`.venv`, made by scripts/test), whose
    /// `bin` holds the python3 with the test packages and, where the system's was
    /// missing or too old, node.
    package static let virtualEnvironmentBin = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".venv/bin")

    /// `name` from the repository's virtual environment when it has one, else from `PATH`:
    /// so a plain `swift test` finds what scripts/test installed.
    package static func tool(_ name: String) -> URL? {
        let inEnvironment = virtualEnvironmentBin.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: inEnvironment.path) { return inEnvironment }
        return onPath(name)
    }

    /// The absolute path of `name` on `PATH`.
    package static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: "\($0)/\(name)") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
