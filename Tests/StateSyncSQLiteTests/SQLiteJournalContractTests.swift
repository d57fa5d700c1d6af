import Foundation
import Logging
import StateSyncJournal
import StateSyncJournalTesting
import Synchronization
import TestProcessSupport
import Testing
@testable import StateSyncSQLite

/// ``SQLiteJournal`` keeps the journal contract (``JournalContract``), each
/// journal in a data directory of its own, and keeps it across a reopen.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteJournalContractTests {
    @Test(arguments: JournalContract.cases)
    func keepsTheContract(_ contract: JournalContractCase) async throws {
        try await withTemporaryDirectory { directory in
            let opened = Atomic(0)
            try await contract.run { retention in
                let number = opened.add(1, ordering: .relaxed).newValue
                return try await SQLiteJournal.open(
                    configuration: .init(directory: "\(directory)/\(number)", retention: retention), logger: quietLogger)
            }
        }
    }

    @Test func theClientsOutcomesSurviveAReopen() async throws {
        try await withTemporaryDirectory { directory in
            let first = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger)
            try await first.append(JournalBatch(entries: [
                JournalSamples.entry(1, actionID: "pay", clientID: "victim"), JournalSamples.entry(2, clientID: "other"),
            ]))
            try await first.close()
            let reopened = try await SQLiteJournal.open(configuration: .init(directory: directory), logger: quietLogger)
            #expect(try await reopened.outcomeClients() == ["victim", "other"])
            #expect(try await reopened.outcome(clientID: "victim", actionID: "pay") == .accepted(revision: 1))
            try await reopened.close()
        }
    }
}

/// A logger that prints nothing (tests never bootstrap logging).
let quietLogger = Logger(label: "statesync.sqlite-tests", factory: { _ in SwiftLogNoOpLogHandler() })
