import Dispatch
import Foundation
import GRDB
import StateSyncJournal
import StateSyncJournalTesting
import TestProcessSupport
import Testing
@testable import StateSyncSQLite

/// The stores of ``SQLiteStores`` share one file but nothing else: each
/// keeps its revisions, outcomes, retention and epoch, across a reopen, and
/// one store's failing part of a combined commit fails it alone.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteStoresTests {
    @Test func twoStoresInOneFileKeepTheirOwnRevisionsOutcomesAndRetention() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory, retention: JournalRetention(revisions: 2, olderSnapshots: 0))
            let a = try await stores.journal("a")
            let b = try await stores.journal("b")
            try await a.append(JournalBatch(entries: (1...6).map { JournalSamples.entry($0, actionID: "a\($0)", clientID: "alice") }))
            try await b.append(JournalBatch(entries: (1...6).map { JournalSamples.entry($0, actionID: "b\($0)", clientID: "bob") }))
            try await a.saveSnapshot(JournalSnapshot(revision: 6, state: Array("{}".utf8)))

            #expect(try #require(try await a.oldestRevision()) > 1, "a's retention dropped a's oldest entries")
            #expect(try await b.oldestRevision() == 1, "b's entries are b's alone")
            #expect(try await b.snapshotRevisions() == [])
            #expect(try await a.outcomeClients() == ["alice"])
            #expect(try await b.outcome(clientID: "bob", actionID: "b3") == .accepted(revision: 3))
            #expect(try await a.outcome(clientID: "bob", actionID: "b3") == nil)
            #expect(try await b.entries(from: 1, through: 6).map(\.actionID) == (1...6).map { "b\($0)" })
            #expect(Set(stores.names()) == ["a", "b"])
            #expect(stores.exists("a") && !stores.exists("c"))
            #expect(a.path == b.path && a.path.hasSuffix("/stores.sqlite"))
            try await a.close()
            try await b.close()
            try await stores.close()
        }
    }

    @Test func aReopenedFileKeepsEachStoresStateRevisionAndEpoch() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let a = try await stores.journal("a")
            let b = try await stores.journal("b")
            try await a.append(JournalSamples.batch(1...3))
            try await b.append(JournalSamples.batch(1...7))
            try await b.saveSnapshot(JournalSnapshot(revision: 7, state: Array(#"{"n":7}"#.utf8)))
            let epochs = (a.epoch, b.epoch)
            #expect(epochs.0 != epochs.1)
            try await a.close()
            try await b.close()
            try await stores.close()
            let log = try? FileManager.default.attributesOfItem(atPath: directory + "/stores.sqlite-wal")
            #expect((log?[.size] as? Int ?? 0) == 0, "a clean close checkpoints the log away")

            let reopened = try await openStores(directory)
            #expect(Set(reopened.names()) == ["a", "b"])
            let a2 = try await reopened.journal("a")
            let b2 = try await reopened.journal("b")
            #expect((a2.epoch, a2.lastRevision) == (epochs.0, 3))
            #expect((b2.epoch, b2.lastRevision) == (epochs.1, 7))
            #expect(try await b2.latestSnapshot()?.state == Array(#"{"n":7}"#.utf8))
            try await a2.append(JournalSamples.batch(4...4))
            try await a2.close()
            try await b2.close()
            try await reopened.close()
        }
    }

    @Test func removingAStoreDeletesItsRowsAloneAndItComesBackNew() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let a = try await stores.journal("a")
            let b = try await stores.journal("b")
            try await a.append(JournalSamples.batch(1...3))
            try await a.saveSnapshot(JournalSnapshot(revision: 3, state: Array("{}".utf8)))
            try await b.append(JournalSamples.batch(1...2))
            let epoch = a.epoch
            try await a.close()
            #expect(try #require(await stores.storedBytes(of: ["a"])["a"]) > 0)
            try await stores.remove("a")
            #expect(!stores.exists("a"))
            #expect(await stores.storedBytes(of: ["a"]) == [:])
            let rows = try await stores.pool.read { db in
                try ["journal", "snapshots", "outcomes"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1 }
            }
            #expect(rows == [2, 0, 2], "only b's entries and outcomes are left")
            try await stores.remove("never-created")

            let again = try await stores.journal("a")
            #expect(again.epoch != epoch)
            #expect(again.lastRevision == 0)
            #expect(b.lastRevision == 2)
            try await again.close()
            try await b.close()
            try await stores.close()
            let reopened = try await openStores(directory)
            #expect(Set(reopened.names()) == ["a", "b"])
            try await reopened.close()
        }
    }

    @Test func aStoresRowIsWrittenWithItsFirstCommit() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let before = try await stores.commits()
            let a = try await stores.journal("a")
            #expect(a.isKnownEmpty)
            #expect(stores.exists("a"))
            #expect(stores.names().isEmpty, "opening a new store writes nothing")
            #expect(try await stores.commits() == before)
            try await a.append(JournalSamples.batch(1...1))
            #expect(!a.isKnownEmpty)
            #expect(stores.names() == ["a"], "its first batch's transaction holds its row")
            #expect(try await stores.commits() == before + 1, "one transaction, one fsync")
            let epoch = a.epoch
            try await a.close()
            try await stores.close()

            try await expectStored("a", in: directory, epoch: epoch, lastRevision: 1)
        }
    }

    @Test func aStoreClosedBeforeItsFirstWriteHasItsRowWrittenUnsyncedAndUncounted() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let before = try await stores.commits()
            let a = try await stores.journal("a")
            let epoch = a.epoch
            try await a.close()
            #expect(stores.names() == ["a"])
            #expect(try await stores.commits() == before, "a row alone is not a counted (synced) commit")
            #expect(try await stores.writerSynchronous() == 2, "the writer is back to FULL after it")
            try await stores.close()

            try await expectStored("a", in: directory, epoch: epoch, lastRevision: 0)
        }
    }

    /// Opens the stores of `directory` again and expects `store` there,
    /// stored (not known empty), at `epoch` and `lastRevision`.
    private func expectStored(_ store: String, in directory: String, epoch: String, lastRevision: UInt64) async throws {
        let reopened = try await openStores(directory)
        let again = try await reopened.journal(store)
        #expect(!again.isKnownEmpty)
        #expect((again.epoch, again.lastRevision) == (epoch, lastRevision))
        try await again.close()
        try await reopened.close()
    }

    @Test func aStoreTheCatalogTakesForExistingButTheFileLacksIsCreatedWhenItOpens() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let a = try await stores.journal("a")
            try await a.append(JournalSamples.batch(1...2))
            try await a.close()
            // As a name whose hash is another store's would look: known to the catalog, not in the file.
            try await stores.pool.write { db in try db.execute(sql: "DELETE FROM stores WHERE name = 'a'") }
            #expect(stores.exists("a"))
            #expect(stores.names().isEmpty, "names are read from the file")

            let again = try await stores.journal("a")
            #expect(again.lastRevision == 0)
            try await again.append(JournalSamples.batch(1...1))
            #expect(stores.names() == ["a"])
            try await again.close()
            try await stores.close()
        }
    }

    @Test func everyConnectionOfTheFileHasABoundedPageCache() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let bound = -JournalFile.pageCacheKiB
            #expect(try await stores.pool.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == bound)
            #expect(try await stores.pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == bound)
            try await stores.close()
        }
    }

    @Test func theWriterKeepsItsSavepointsJournalsInMemory() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            // 2: MEMORY. The default (0) spills a statement journal past 64 KiB to a temporary file.
            #expect(try await stores.pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA temp_store") } == 2)
            try await stores.close()
        }
    }

    @Test func aStoreWhosePartFailsIsRolledBackAloneAndTheOthersCommitInTheSameTransaction() async throws {
        try await withTemporaryDirectory { directory in
            let stores = try await openStores(directory)
            let good = try await stores.journal("good")
            let bad = try await stores.journal("bad")
            let badID = try #require(bad.scope.storeID)
            // A row bad's writer does not know of: its revision 1 will conflict.
            try await stores.pool.write { db in
                try db.execute(
                    sql: "INSERT INTO journal (store_id, revision, time_bits, action) VALUES (?, 1, 0, x'00')", arguments: [badID])
            }
            let before = try await stores.commits()
            // Hold the writer so that both parts wait for the same transaction.
            let gate = DispatchSemaphore(value: 0)
            stores.pool.asyncWriteWithoutTransaction { _ in gate.wait() }
            async let goodResult = Result { try await good.append(JournalSamples.batch(1...2)) }
            async let badResult = Result { try await bad.append(JournalSamples.batch(1...1)) }
            let deadline = ContinuousClock.now + .seconds(10)
            while stores.combiner.pendingCount < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))   // the parts' arrival cannot be awaited from outside
            }
            #expect(stores.combiner.pendingCount == 2)
            gate.signal()

            try await goodResult.get()
            let failure = await badResult
            #expect(throws: JournalError.self) { try failure.get() }
            #expect(try await stores.commits() == before + 1, "one transaction for both")
            #expect(try await good.entries(from: 1, through: 2).count == 2)
            #expect(try await bad.entries(from: 1, through: 1).first?.action == [0])
            #expect(stores.names() == ["good"], "bad's row was rolled back with its part")
            try await good.close()
            try await bad.close()
            #expect(Set(stores.names()) == ["good", "bad"], "and written when it closed")
            try await stores.close()

            let reopened = try await openStores(directory)
            let goodAgain = try await reopened.journal("good")
            #expect(goodAgain.lastRevision == 2, "the good store's batch is durable")
            try await goodAgain.close()
            try await reopened.close()
        }
    }
}

extension Result where Failure == any Error {
    /// The result of `body`.
    init(_ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
