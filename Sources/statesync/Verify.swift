import ArgumentParser
import StateSyncSQLite

/// `statesync verify --data DIR`: checks a data directory without changing
/// it and prints what it found; exits 0 when it is intact, 1 when not.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a data directory (journal, snapshots, durable record) without changing it.",
        discussion: """
            Prints one line per check, PROBLEM: before each problem, and a last line \
            "intact" or "damaged"; exits 0 when intact, 1 when damaged. The file of the \
            stores other than main (stores.sqlite) is checked too, its lines after \
            "stores:", then each store's after "store NAME:". Safe on a running server's \
            directory (read-only, no lock taken).
            """
    )

    @Option(help: "The data directory to check.")
    var data = "./statesync-data"

    func run() throws {
        let main = SQLiteJournal.verify(directory: data)
        for line in main.findings { printLine(line) }
        let stores = SQLiteStores.verify(directory: data)
        for line in stores.file.findings { printLine("stores: \(line)") }
        for store in stores.stores {
            for line in store.report.findings { printLine("store \(store.name): \(line)") }
        }
        let problems = main.problems.count + stores.problemCount
        printLine(problems == 0 ? "intact" : "damaged")
        if problems > 0 {
            throw CommandFailure(message: "\(data) is damaged: \(problems) problem(s)")
        }
    }
}
