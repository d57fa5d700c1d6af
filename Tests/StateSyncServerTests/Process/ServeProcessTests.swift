import Foundation
import StateSyncTestSupport
import Testing

/// The test support's child process: one still running when its test lets
/// go of it is killed, so a test that fails before stopping its server
/// leaves no server behind.
@Suite(.timeLimit(.minutes(1)))
struct ServeProcessTests {
    /// The state letter of `/proc/PID/stat` (`Z` for an exited child not yet reaped), or `nil` once it is gone.
    private static func state(of pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ")
        else { return nil }
        return stat[afterName.upperBound...].first
    }

    @Test func aChildStillRunningWhenItsTestLetsGoIsKilled() async throws {
        var child: ServeProcess? = try ServeProcess(["300"], executable: URL(fileURLWithPath: "/bin/sleep"))
        let pid = try #require(child?.processIdentifier)
        #expect(child?.isRunning == true)
        child = nil
        #expect(try await eventually { Self.state(of: pid).map { $0 == "Z" } ?? true }, "state \(String(describing: Self.state(of: pid)))")
    }
}
