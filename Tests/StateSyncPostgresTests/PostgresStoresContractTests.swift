import Foundation
import StateSyncJournal
import StateSyncJournalTesting
import StateSyncPostgres
import Synchronization
import TestProcessSupport
import Testing

/// A store's ``PostgresJournal`` opened from a node's ``PostgresStores``
/// keeps the journal contract (``JournalContract``) as one opened alone
/// does, each journal a store of its own sharing the node's connections
/// (two writers, so that a case's journals wait for one another's).
@Suite(.timeLimit(.minutes(3)))
struct PostgresStoresContractTests {
    @Test(arguments: JournalContract.cases)
    func keepsTheContract(_ contract: JournalContractCase) async throws {
        try await TestPostgres.with { postgres in
            let location = try PostgresLocation(url: postgres.url)
            // The retention belongs to the node: one PostgresStores per retention a case asks for.
            let nodes = Mutex<[JournalRetention: PostgresStores]>([:])
            do {
                try await contract.run { retention in
                    let stores: PostgresStores
                    if let open = nodes.withLock({ $0[retention] }) {
                        stores = open
                    } else {
                        var configuration = PostgresStores.Configuration(writerConnections: 2)
                        configuration.journal.retention = retention
                        stores = try await PostgresStores.open(location: location, configuration: configuration, logger: JournalFixtures.logger)
                        nodes.withLock { $0[retention] = stores }
                    }
                    return try await stores.open(
                        "contract-\(UUID().uuidString.prefix(8).lowercased())", logger: JournalFixtures.logger, writeFailed: {})
                }
            } catch {
                for stores in nodes.withLock({ Array($0.values) }) { try? await stores.close() }   // the case's error is reported
                throw error
            }
            for stores in nodes.withLock({ Array($0.values) }) { try await stores.close() }
        }
    }
}
