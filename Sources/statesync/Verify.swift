import ArgumentParser
import Foundation
import StateSyncProtocol
import StateSyncSQLite
import StateSyncServer

/// `statesync verify --data DIR`: checks a data directory without changing
/// it and prints what it found; exits 0 when it is intact, 1 when not.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a data directory (journal, snapshots, durable record) without changing it.",
        discussion: """
            Prints one line per check, PROBLEM: before each problem, and a last line \
            "intact" or "damaged"; exits 0 when intact, 1 when damaged. Every store's own \
            directory (stores/NAME) is checked too, its lines after "store NAME:". Safe on a \
            running server's directory (read-only, no lock taken).
            """
    )

    @Option(help: "The data directory to check.")
    var data = "./statesync-data"

    func run() throws {
        let main = SQLiteJournal.verify(directory: data)
        for line in main.findings { printLine(line) }
        var problems = main.problems.count
        for store in try Self.stores(in: data) {
            let report = SQLiteJournal.verify(directory: "\(data)/stores/\(store)")
            for line in report.findings { printLine("store \(store): \(line)") }
            problems += report.problems.count
        }
        printLine(problems == 0 ? "intact" : "damaged")
        if problems > 0 {
            throw CommandFailure(message: "\(data) is damaged: \(problems) problem(s)")
        }
    }

    /// The stores other than main under `data` (`stores/NAME`), in name order.
    private static func stores(in data: String) throws(CommandFailure) -> [StoreName] {
        let directory = "\(data)/stores"
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory).compactMap { try? StoreName($0) }.sorted()
        } catch {
            throw CommandFailure(message: "cannot list \(directory): \(error)")
        }
    }
}
