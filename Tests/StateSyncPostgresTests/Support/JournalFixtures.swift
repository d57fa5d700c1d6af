import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncPostgres
import StateSyncServer
import TestProcessSupport

/// Journals and entries for the PostgreSQL journal tests.
enum JournalFixtures {
    static let logger = Logger(label: "statesync.postgres-tests")

    /// A journal of the default store at `postgres`.
    static func open(
        _ postgres: TestPostgres, retention: JournalRetention = JournalRetention(), statementTimeout: Duration = .seconds(10),
        heldTurnLimit: Duration = .milliseconds(200), outcomeRetention: OutcomeRetention = OutcomeRetention()
    ) async throws -> PostgresJournal {
        var configuration = PostgresJournal.Configuration(retention: retention, statementTimeout: statementTimeout)
        configuration.heldTurnLimit = heldTurnLimit
        configuration.outcomeRetention = outcomeRetention
        return try await PostgresJournal.open(
            location: try PostgresLocation(url: postgres.url), configuration: configuration, logger: logger)
    }

    /// An entry at `revision` from `client` with action id `actionID`,
    /// its action naming `writer` (so a test sees whose entry won), at a
    /// time whose sub-microsecond bits a lossy store would lose.
    static func entry(_ revision: UInt64, client: String? = "c-1", actionID: String? = nil, writer: String = "w") -> JournalEntry {
        let time = Date(timeIntervalSinceReferenceDate: 785_000_000.123_456_789 + Double(revision))
        return JournalEntry(
            meta: Meta(revision: revision, clientID: client, time: time), actionID: actionID ?? "a\(revision)",
            action: Array(#"{"type":"increment","counter":"\#(writer)"}"#.utf8))
    }
}
