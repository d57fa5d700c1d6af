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
///
/// Every case runs on one PostgreSQL, one after the other (a server per
/// case, as the journal alone has, would start nine more on a loaded
/// machine); each failure names its case.
@Suite(.timeLimit(.minutes(3)))
struct PostgresStoresContractTests {
    @Test func everyCaseOfTheContractHoldsForAStoreOfSharedStores() async throws {
        try await TestPostgres.with { postgres in
            let nodes = Nodes(location: try PostgresLocation(url: postgres.url))
            for contract in JournalContract.cases {
                do {
                    try await contract.run { retention in try await nodes.newStore(keeping: retention) }
                } catch {
                    Issue.record("\(contract): \(error)")
                }
            }
            try await nodes.close()
        }
    }
}

/// The nodes of a test: the retention belongs to the node, so one
/// ``PostgresStores`` per retention a case asks for, opened when first asked.
private final class Nodes: Sendable {
    private let location: PostgresLocation
    private let byRetention = Mutex<[JournalRetention: PostgresStores]>([:])

    init(location: PostgresLocation) {
        self.location = location
    }

    /// The journal of a new store of the node keeping `retention`.
    func newStore(keeping retention: JournalRetention) async throws -> any Journal {
        let stores: PostgresStores
        if let open = byRetention.withLock({ $0[retention] }) {
            stores = open
        } else {
            var configuration = PostgresStores.Configuration(writerConnections: 2)
            configuration.journal.retention = retention
            stores = try await PostgresStores.open(location: location, configuration: configuration, logger: JournalFixtures.logger)
            byRetention.withLock { $0[retention] = stores }
        }
        return try await stores.open("contract-\(UUID().uuidString.prefix(8).lowercased())", logger: JournalFixtures.logger, writeFailed: {})
    }

    /// Closes every node (their stores' journals are closed).
    func close() async throws {
        for stores in byRetention.withLock({ Array($0.values) }) { try await stores.close() }
    }
}
