import GRDB
import StateSyncJournal
import Testing
@testable import StateSyncSQLite

/// Opens the stores' file of `directory` for a test.
func openStores(_ directory: String, retention: JournalRetention = JournalRetention(), policy: DamagedJournalPolicy = .refuse)
    async throws -> SQLiteStores
{
    try await SQLiteStores.open(
        configuration: .init(journal: .init(directory: directory, retention: retention, damagedJournal: policy)), logger: quietLogger)
}

extension SQLiteStores {
    /// The journal of `store`, as the ``SQLiteJournal`` it is.
    func journal(_ store: String) async throws -> SQLiteJournal {
        try #require(try await open(store, logger: quietLogger, writeFailed: {}) as? SQLiteJournal)
    }

    /// The writer connection's `PRAGMA synchronous` (2: `FULL`, 1: `NORMAL`).
    func writerSynchronous() async throws -> Int {
        try await pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// The file's count of committed transactions.
    func commits() async throws -> UInt64 {
        try await pool.read { try StoresSchema.commits($0) }
    }
}
