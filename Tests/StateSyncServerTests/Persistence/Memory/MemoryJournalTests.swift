import Synchronization
import Testing
@testable import StateSyncServer

@Suite(.timeLimit(.minutes(1)))
struct MemoryJournalTests {
    @Test func entriesBeyondTheRetentionAreDroppedAndReportedAsSuch() async throws {
        let journal = MemoryJournal(configuration: .init(entryRetention: 10))
        try await journal.append(batch(1...25))
        #expect(try await journal.entries(from: 16, through: 25).map(\.revision) == Array(16...25))
        let error = await #expect(throws: JournalError.self) { try await journal.entries(from: 15, through: 25) }
        #expect(error?.description == "journal entries before revision 16 are no longer kept (requested 15)")
        #expect(try await journal.oldestRevision() == 16)
        #expect(journal.lastRevision == 25)
    }

    @Test func completionRunsBeforeAppendReturns() {
        let journal = MemoryJournal()
        let completed = Mutex(false)
        journal.append(batch(1...1)) { result in
            if case .success = result { completed.withLock { $0 = true } }
        }
        #expect(completed.withLock { $0 })
    }

    @Test func everyInstanceHasItsOwnEpoch() {
        #expect(MemoryJournal().epoch != MemoryJournal().epoch)
    }
}
