import Foundation
import Testing
import StateSyncTestSupport

/// `statesync-soak` (the driver of `scripts/soak`) in a tiny configuration
/// against the real `statesync serve`: 20 clients for 8 seconds with one
/// SIGKILL and restart. It must pass its own checks (every mirror converged,
/// no acked action lost or applied twice), so the driver cannot rot unseen.
@Suite(.timeLimit(.minutes(1)))
struct SoakDriverTests {
    private static var soakExecutable: URL {
        ServeProcess.executable.deletingLastPathComponent().appendingPathComponent("statesync-soak")
    }

    @Test func tinySoakWithOneKillPasses() async throws {
        let soak = try ServeProcess([
            "--statesync", ServeProcess.executable.path,
            "--clients", "20", "--writers", "4", "--slow-readers", "4",
            "--duration", "8", "--kill-every", "4", "--disconnect-every", "3", "--dispatch-every", "0.2",
            "--slow-read-delay", "0.05", "--settle-timeout", "15",
        ], executable: Self.soakExecutable)
        let status = await soak.waitForExit()
        let output = soak.standardOutput
        #expect(status == 0, "stdout: \(output)\nstderr: \(soak.standardError)")
        let summary = try #require(output.split(separator: "\n").last { $0.hasPrefix("SOAK ") }, "no SOAK line: \(output)")
        #expect(summary.contains(" kills=1 "), "\(summary)")
        #expect(summary.contains(" converged=20/20 "), "\(summary)")
        #expect(summary.contains(" lost=0 duplicated=0 "), "\(summary)")
        #expect(summary.hasSuffix(" result=pass"), "\(summary)")
        let acked = summary.split(separator: " ").first { $0.hasPrefix("acked=") }.flatMap { Int($0.dropFirst(6)) }
        #expect((acked ?? 0) > 20, "4 writers dispatching 5 actions/s for 8 s: \(summary)")
    }
}
