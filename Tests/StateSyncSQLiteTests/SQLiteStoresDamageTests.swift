import Foundation
import GRDB
import StateSyncJournal
import StateSyncJournalTesting
import TestProcessSupport
import Testing
@testable import StateSyncSQLite

/// The stores' file counts its commits, and its durable record follows the
/// count: a file behind it (a replaced file, a lost log) is refused, or
/// every store gets a new epoch; `verify` names a damaged store.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteStoresDamageTests {
    /// Writes two stores, closes, and returns their epochs.
    private func writeTwoStores(_ directory: String, from first: UInt64 = 1) async throws -> [String: String] {
        let stores = try await openStores(directory)
        var epochs: [String: String] = [:]
        for name in ["a", "b"] {
            let journal = try await stores.journal(name)
            try await journal.append(JournalSamples.batch(first...(first + 2)))
            epochs[name] = journal.epoch
            try await journal.close()
        }
        try await stores.close()
        return epochs
    }

    @Test func aFileBehindItsRecordIsRefusedOrEveryStoreGetsANewEpoch() async throws {
        try await withTemporaryDirectory { directory in
            let epochs = try await writeTwoStores(directory)
            let recordPath = directory + "/" + JournalFileKind.stores.recordFileName
            guard case .mark(let mark) = DurableRecord.read(path: recordPath) else {
                Issue.record("no durable record at \(recordPath)")
                return
            }
            #expect(mark.revision == 2, "two stores created (their rows wait for the next synced commit), two batches: two commits")
            // As if five more commits had been acknowledged and then lost with the log.
            let record = try DurableRecord(path: recordPath)
            #expect(record.write(DurableRecord.Mark(epoch: mark.epoch, revision: mark.revision + 5)))
            record.flushAndClose()

            let error = await #expect(throws: JournalError.self) { try await openStores(directory) }
            #expect(error?.isDamaged == true)
            #expect(error?.description.contains("commit 7 of epoch \(mark.epoch) was acknowledged as durable, but the journal ends at commit 2") == true,
                    "\(String(describing: error))")
            #expect(error?.description.contains("--on-damaged-journal new-epoch") == true)
            #expect(!SQLiteStores.verify(directory: directory).isIntact)

            let recovered = try await openStores(directory, policy: .newEpoch)
            for name in ["a", "b"] {
                let journal = try await recovered.journal(name)
                #expect(journal.epoch != epochs[name], "\(name) has a new epoch")
                #expect(journal.lastRevision == 3, "\(name) keeps what is left")
                try await journal.close()
            }
            try await recovered.close()
            #expect(SQLiteStores.verify(directory: directory).isIntact)
        }
    }

    @Test func anOlderCopyOfTheFileIsDamage() async throws {
        try await withTemporaryDirectory { directory in
            _ = try await writeTwoStores(directory)
            let file = directory + "/stores.sqlite"
            try FileManager.default.copyItem(atPath: file, toPath: file + ".old")
            _ = try await writeTwoStores(directory, from: 4)
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.moveItem(atPath: file + ".old", toPath: file)

            let error = await #expect(throws: JournalError.self) { try await openStores(directory) }
            #expect(error?.isDamaged == true)
            try FileManager.default.removeItem(atPath: file)
            let missing = await #expect(throws: JournalError.self) { try await openStores(directory) }
            #expect(missing?.description.contains("the journal file is missing") == true)
        }
    }

    @Test func verifyReportsEachStoreAndNamesTheOneWithAGap() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            #expect(SQLiteStores.verify(directory: directory).file.findings.isEmpty, "no stores' file: nothing to check")
            _ = try await writeTwoStores(directory)
            let intact = SQLiteStores.verify(directory: directory)
            #expect(intact.isIntact, "\(intact)")
            #expect(intact.stores.map(\.name) == ["a", "b"])
            #expect(intact.file.findings.contains("SQLite quick_check: ok"))
            #expect(intact.stores[1].report.findings.contains { $0.hasPrefix("entries: 3 ") })

            // b loses its middle entry.
            let stores = try await openStores(directory)
            let b = try await stores.journal("b")
            let id = try #require(b.scope.storeID)
            try await b.close()
            try await stores.pool.write { try $0.execute(sql: "DELETE FROM journal WHERE store_id = ? AND revision = 2", arguments: [id]) }
            try await stores.close()
            let damaged = SQLiteStores.verify(directory: directory)
            #expect(!damaged.isIntact)
            #expect(damaged.stores[0].report.isIntact)
            #expect(damaged.stores[1].report.problems == ["entries are missing: 2 entries for revisions 1…3"])
        }
    }
}
