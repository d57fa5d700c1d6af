import Foundation
import StateSyncCore

/// What a soak run measured, its checks, and the lines it prints.
struct SoakReport: Sendable {
    /// One server process, from its start to its SIGKILL (or the end of the load).
    struct Life: Sendable {
        /// How long it ran.
        var seconds: Double
        /// Its resident memory just before its end, in KiB.
        var residentKiB: Int?
        /// Actions acked in the whole run by then.
        var acked: Int
    }

    /// How the clients' mirrors compared with the server's state after the load.
    struct Convergence: Sendable {
        /// The revision of the state read (`nil` when it could not be read).
        var rev: UInt64?
        /// The state read with `get ""`.
        var state: JSONValue?
        /// Writers whose last dispatch was still unanswered at the timeout.
        var unsettledWriters: Int
        /// Clients whose mirror equals the state at their path.
        var converged: Int
        /// All clients.
        var total: Int
        /// How long the comparison took until every client matched (or it gave up).
        var seconds: Double
        /// Some of the clients that never matched.
        var differing: [String]
    }

    /// One writer's counter.
    struct WriterOutcome: Sendable {
        var name: String
        /// Its value before the run.
        var initial: Int64
        /// Actions the server acked to this writer.
        var acked: Int
        /// Its value after the run (`nil` when the state could not be read).
        var final: Int64?

        /// Acked increments missing from the final state.
        var lost: Int64 { final.map { max(0, initial + Int64(acked) - $0) } ?? Int64(acked) }
        /// Increments applied beyond the acked ones (an action applied twice).
        var duplicated: Int64 { final.map { max(0, $0 - initial - Int64(acked)) } ?? 0 }
    }

    let configuration: SoakConfiguration
    let lives: [Life]
    /// The server's resident memory after the clients converged, in KiB.
    let finalKiB: Int?
    /// Whether the last server process was still running at the end.
    let serverRunning: Bool
    let tally: SoakTally.Counts
    /// How many problems the clients noted, and the first ones.
    let problems: (count: Int, first: [String])
    let convergence: Convergence
    let writers: [WriterOutcome]
    /// Clients still running 30 s after the run told them to close.
    var unclosedClients = 0

    var lost: Int64 { writers.reduce(0) { $0 + $1.lost } }
    var duplicated: Int64 { writers.reduce(0) { $0 + $1.duplicated } }

    /// Why the run failed; empty when every check passed.
    var failures: [String] {
        var failures: [String] = []
        if !serverRunning { failures.append("the server was not running at the end") }
        if convergence.state == nil { failures.append("the final state could not be read") }
        if convergence.unsettledWriters > 0 { failures.append("\(convergence.unsettledWriters) writers did not finish their loop (a dispatch unanswered, or a client that did not restart)") }
        if convergence.converged < convergence.total {
            failures.append("\(convergence.total - convergence.converged) clients did not converge; some of them:\n  " + convergence.differing.joined(separator: "\n  "))
        }
        if lost > 0 { failures.append("\(lost) acked actions are missing from the final state") }
        if duplicated > 0 { failures.append("\(duplicated) actions were applied more than once") }
        if tally.rejected > 0 { failures.append("\(tally.rejected) dispatches failed") }
        if tally.gaps > 0 { failures.append("\(tally.gaps) patches did not chain on the slow readers' revision") }
        if unclosedClients > 0 { failures.append("\(unclosedClients) clients did not close within 30 s") }
        if problems.count > 0 { failures.append("the clients noted \(problems.count) problems") }
        if configuration.writers > 0, tally.acked == 0 { failures.append("no action was acked") }
        return failures
    }

    /// The report: one line per server life, the problems seen, then one `SOAK` line for scripts.
    var text: String {
        var lines: [String] = []
        for (number, life) in lives.enumerated() {
            lines.append("life \(number + 1): \(String(format: "%.1f", life.seconds)) s, RSS at its end \(life.residentKiB.map { "\($0) KiB" } ?? "unknown"), \(life.acked) acked by then")
        }
        if problems.count > 0 {
            lines.append("\(problems.count) problems noted; the first ones:")
            lines += problems.first.map { "  \($0)" }
        }
        for failure in failures { lines.append("FAILED: \(failure)") }
        let rss = lives.map { $0.residentKiB.map(String.init) ?? "?" }.joined(separator: ",")
        lines.append(
            "SOAK clients=\(configuration.clients) writers=\(configuration.writers) slow_readers=\(configuration.slowReaders) "
                + "duration_s=\(Int(configuration.duration)) kills=\(lives.count - 1) acked=\(tally.acked) rejected=\(tally.rejected) "
                + "lost=\(lost) duplicated=\(duplicated) disconnects=\(tally.disconnects) slow_connections=\(tally.slowConnections) "
                + "gaps=\(tally.gaps) converged=\(convergence.converged)/\(convergence.total) converge_s=\(String(format: "%.1f", convergence.seconds)) "
                + "final_rev=\(convergence.rev.map(String.init) ?? "?") rss_kib_lives=\(rss) rss_kib_final=\(finalKiB.map(String.init) ?? "?") "
                + "problems=\(problems.count) result=\(failures.isEmpty ? "pass" : "FAIL")")
        return lines.joined(separator: "\n")
    }
}
