import Foundation
import StateSyncJournal
import StateSyncJournalTesting
import StateSyncPostgres
import TestProcessSupport
import Testing

/// ``PostgresJournal`` keeps the journal contract (``JournalContract``)
/// against a real PostgreSQL of the test's own, each journal a store of its
/// own in one database.
@Suite(.timeLimit(.minutes(3)))
struct PostgresJournalContractTests {
    @Test(arguments: JournalContract.cases)
    func keepsTheContract(_ contract: JournalContractCase) async throws {
        try await TestPostgres.with { postgres in
            let location = try PostgresLocation(url: postgres.url)
            try await contract.run { retention in
                let configuration = PostgresJournal.Configuration(
                    storeID: "contract-\(UUID().uuidString.prefix(8).lowercased())", retention: retention)
                return try await PostgresJournal.open(location: location, configuration: configuration, logger: JournalFixtures.logger)
            }
        }
    }
}
