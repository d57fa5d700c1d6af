import StateSyncCore
import Synchronization
import StateSyncJournalTesting
import Testing
@testable import StateSyncJournal

@Suite(.timeLimit(.minutes(1)))
struct MemoryJournalTests {
    @Test func entriesBeyondTheRetentionAreDroppedAtASnapshotAndReportedAsSuch() async throws {
        let journal = MemoryJournal(configuration: .init(retention: JournalRetention(revisions: 10)))
        try await journal.append(JournalSamples.batch(1...25))
        #expect(try await journal.oldestRevision() == 1, "by revisions, entries go when a snapshot is stored")
        try await journal.saveSnapshot(JournalSnapshot(revision: 25, state: Array("{}".utf8)))
        #expect(try await journal.entries(from: 16, through: 25).map(\.revision) == Array(16...25))
        let error = await #expect(throws: JournalError.self) { try await journal.entries(from: 15, through: 25) }
        #expect(error?.description == "journal entries before revision 16 are no longer kept (requested 15)")
        #expect(try await journal.oldestRevision() == 16)
        #expect(journal.lastRevision == 25)
    }

    @Test func entriesAreRetainedByBytesTooAndTheNewestIsAlwaysKept() async throws {
        // Each fixture entry counts ~130 bytes (action, ids, 64 of bookkeeping).
        let journal = MemoryJournal(configuration: .init(retention: JournalRetention(bytes: 1_000)))
        try await journal.append(JournalSamples.batch(1...100))
        let oldest = try #require(try await journal.oldestRevision())
        #expect((90...95).contains(oldest), "kept from \(oldest)")
        let huge = JournalEntry(meta: Meta(revision: 101, clientID: nil, time: JournalSamples.time), action: Array(repeating: 32, count: 5_000))
        try await journal.append(JournalBatch(entries: [huge]))
        #expect(try await journal.oldestRevision() == 101)
        #expect(journal.lastRevision == 101)
    }

    @Test func completionRunsBeforeAppendReturns() {
        let journal = MemoryJournal()
        let completed = Mutex(false)
        journal.append(JournalSamples.batch(1...1)) { result in
            if case .success = result { completed.withLock { $0 = true } }
        }
        #expect(completed.withLock { $0 })
    }

    @Test func everyInstanceHasItsOwnEpoch() {
        #expect(MemoryJournal().epoch != MemoryJournal().epoch)
    }
}
