import ArgumentParser
import BoardApp
import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncServer
import StateSyncSQLite

/// `statesync migrate --data DIR [--dry-run]`: brings every store of a data
/// directory to the board's app schema version while no server runs it,
/// and proves each (``StoreMigration``).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring a data directory's stores to the app's schema version, offline, and prove the result.",
        discussion: """
            For main and each other store: migrates the newest snapshot and upcasts the entries \
            after it, replays them twice (the state hashes must match), then writes a snapshot \
            of the app's version and reads it back (its hash must match too). Prints one line per \
            store with its state hash, then "migrated", "nothing to migrate" or, with --dry-run, \
            "would migrate". Old rows stay until retention removes them. The server must be \
            stopped (its lock is respected); a server also migrates a store when it opens it.
            """
    )

    @Option(help: "The data directory to migrate.")
    var data = "./statesync-data"

    @Flag(help: "Prove the migration without writing anything.")
    var dryRun = false

    func run() async throws {
        guard FileManager.default.fileExists(atPath: (data as NSString).appendingPathComponent("statesync.sqlite")) else {
            throw CommandFailure(message: "no data directory at \(data): nothing to migrate (statesync.sqlite is missing)")
        }
        let logger = Logger(label: "statesync") { _ in SwiftLogNoOpLogHandler() }
        var migrated = 0
        do {
            let main = try await SQLiteJournal.open(configuration: SQLiteJournal.Configuration(directory: data), logger: logger)
            migrated += try await migrate(main, named: "main")
            let storesFile = SQLiteStores.Configuration()
            if FileManager.default.fileExists(atPath: (data as NSString).appendingPathComponent(storesFile.fileName)) {
                var configuration = storesFile
                configuration.journal.directory = data
                let stores = try await SQLiteStores.open(configuration: configuration, logger: logger)
                for name in stores.names().sorted() {
                    migrated += try await migrate(try await stores.open(name, logger: logger, writeFailed: {}), named: "store \(name)")
                }
                try await stores.close()
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "\(data): \(error)")
        }
        printLine(migrated == 0 ? "nothing to migrate" : dryRun ? "would migrate" : "migrated")
    }

    /// Migrates one store's journal, prints its line and closes it; 1 when it was behind, else 0.
    private func migrate(_ journal: any Journal, named name: String) async throws -> Int {
        let report: StoreMigration<Board>.Report
        do {
            report = try await StoreMigration<Board>.migrate(journal, dryRun: dryRun)
        } catch {
            try? await journal.close()   // the failure is what to report
            throw CommandFailure(message: "\(name): \(error)")
        }
        try await journal.close()
        let at = "revision \(report.revision), state \(report.stateHash)"
        if report.wasCurrent {
            printLine("\(name): already at schema version \(Board.schemaVersion) (\(at))")
            return 0
        }
        let proof = report.wroteSnapshot
            ? "replayed twice and read back: identical; snapshot written"
            : "replayed twice: identical; nothing written (dry run)"
        printLine("\(name): schema version \(report.oldestVersion) → \(Board.schemaVersion) (\(at)): \(proof)")
        return 1
    }
}
