import ArgumentParser
import StateSyncSQLite
import StateSyncServer

/// `statesync verify --data DIR`: checks a data directory without changing
/// it and prints what it found; exits 0 when it is intact, 1 when not.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a data directory (journal, snapshots, durable record) without changing it.",
        discussion: """
            Prints one line per check, PROBLEM: before each problem, and a last line \
            "intact" or "damaged"; exits 0 when intact, 1 when damaged. Safe on a running \
            server's directory (read-only, no lock taken).
            """
    )

    @Option(help: "The data directory to check.")
    var data = "./statesync-data"

    func run() throws {
        let report = SQLiteJournal.verify(directory: data)
        for line in report.findings { printLine(line) }
        printLine(report.isIntact ? "intact" : "damaged")
        if !report.isIntact {
            throw CommandFailure(message: "\(data) is damaged: \(report.problems.count) problem(s)")
        }
    }
}
