import TestProcessSupport
import Foundation
import StateSyncCore
import StateSyncJournalTesting
import Testing
@testable import StateSyncSQLite
import StateSyncJournal

/// The durable record beside an SQLite journal: a journal behind it is
/// refused or given a new epoch; an intact one is never taken for damaged.
/// Two minutes: inside the whole suite one of them took 60.7 s (a clean-clone
/// run on 2026-11-26).
@Suite(.timeLimit(.minutes(2)))
struct SQLiteJournalDamageTests {
    private func open(_ directory: String, policy: DamagedJournalPolicy = .refuse) async throws -> SQLiteJournal {
        try await SQLiteJournal.open(configuration: .init(directory: directory, damagedJournal: policy), logger: quietLogger)
    }

    @Test func theRecordRoundTripsAndATornOneIsUnreadable() {
        let mark = DurableRecord.Mark(epoch: "e-0123456789abcdef0123456789abcdef", revision: 300)
        #expect(DurableRecord.parse(DurableRecord.text(mark)) == .mark(mark))
        var torn = DurableRecord.text(mark)
        torn = torn.replacingOccurrences(of: " 300 ", with: " 301 ")
        #expect(DurableRecord.parse(torn) == .unreadable)
        #expect(DurableRecord.parse("") == .unreadable)
    }

    @Test func reopeningAndAppendingIsNeverTakenForDamage() async throws {
        try await withTemporaryDirectory { directory in
            for round in UInt64(0)..<4 {
                let journal = try await open(directory)
                try await journal.append(JournalSamples.batch((round * 10 + 1)...(round * 10 + 10)))
                try await journal.saveSnapshot(JournalSnapshot(revision: round * 10 + 5, state: Array("{}".utf8)))
                try await journal.close()
            }
            #expect(SQLiteJournal.verify(directory: directory).isIntact)
            #expect(DurableRecord.read(path: directory + "/" + JournalFileKind.oneStore.recordFileName).mark?.revision == 40)
        }
    }

    @Test func aJournalBehindItsRecordIsRefusedOrServedUnderANewEpoch() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await open(directory)
            try await first.append(JournalSamples.batch(1...10))
            let epoch = first.epoch
            try await first.close()
            // As if revisions 11…20 had been acknowledged and then lost with the log.
            let record = try DurableRecord(path: directory + "/" + JournalFileKind.oneStore.recordFileName)
            #expect(record.write(DurableRecord.Mark(epoch: epoch, revision: 20)))
            record.flushAndClose()

            let error = await #expect(throws: JournalError.self) { try await open(directory) }
            #expect(error?.isDamaged == true)
            #expect(error?.description.contains("revision 20 of epoch \(epoch) was acknowledged as durable, but the journal ends at revision 10") == true)
            let report = SQLiteJournal.verify(directory: directory)
            #expect(!report.isIntact)
            #expect(report.problems.count == 1)

            let recovered = try await open(directory, policy: .newEpoch)
            #expect(recovered.epoch != epoch)
            #expect(recovered.lastRevision == 10)
            try await recovered.append(JournalSamples.batch(11...11))
            try await recovered.close()
            let reopened = try await open(directory)
            #expect(reopened.epoch == recovered.epoch)
            try await reopened.close()
        }
    }

    @Test func aMissingJournalFileWithARecordIsDamage() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await open(directory)
            try await first.append(JournalSamples.batch(1...3))
            try await first.close()
            try FileManager.default.removeItem(atPath: directory + "/statesync.sqlite")
            let error = await #expect(throws: JournalError.self) { try await open(directory) }
            #expect(error?.description.contains("the journal file is missing") == true)
        }
    }

    @Test func retentionKeepsTheJournalBoundedAndEveryKeptRevisionNearASnapshot() async throws {
        try await withTemporaryDirectory { directory in
            let retention = JournalRetention(revisions: 50, bytes: 1 << 20, olderSnapshots: 3)
            let journal = try await SQLiteJournal.open(
                configuration: .init(directory: directory, retention: retention), logger: quietLogger)
            for revision in stride(from: UInt64(10), through: 1_000, by: 10) {
                try await journal.append(JournalSamples.batch((revision - 9)...revision))
                if revision % 20 == 0 {
                    try await journal.saveSnapshot(JournalSnapshot(revision: revision, state: Array("{}".utf8)))
                }
            }
            let oldest = try #require(try await journal.oldestRevision())
            let snapshots = try await journal.snapshotRevisions()
            #expect(oldest == 940, "the snapshot at or below 1000 − 50")
            #expect((1...3).contains(snapshots.filter { $0 < 940 }.count), "\(snapshots)")
            #expect(snapshots.filter { $0 >= 940 } == [940, 960, 980, 1_000])
            #expect(try await journal.entries(from: 940, through: 1_000).count == 61)
            try await journal.close()
        }
    }
}

extension DurableRecord.Contents {
    /// The mark, when there is one.
    var mark: DurableRecord.Mark? {
        if case .mark(let mark) = self { return mark }
        return nil
    }
}
