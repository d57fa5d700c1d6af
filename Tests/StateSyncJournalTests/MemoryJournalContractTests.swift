import StateSyncJournal
import StateSyncJournalTesting
import Testing

/// ``MemoryJournal`` keeps the journal contract (``JournalContract``).
@Suite(.timeLimit(.minutes(1)))
struct MemoryJournalContractTests {
    @Test(arguments: JournalContract.cases)
    func keepsTheContract(_ contract: JournalContractCase) async throws {
        try await contract.run { retention in MemoryJournal(configuration: .init(retention: retention)) }
    }
}
