import Foundation
import Logging
import StateSyncCore
import StateSyncJournal
import StateSyncJournalTesting
import StateSyncSQLite

/// A logger that prints nothing (tests never bootstrap logging).
let quietLogger = Logger(label: "statesync.tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// The journal implementations an engine test runs on.
enum JournalKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case sqlite

    var description: String { rawValue }

    /// A new journal of this kind in `directory` (ignored for memory).
    func make(in directory: String, retention: JournalRetention = JournalRetention()) async throws -> any Journal {
        switch self {
        case .memory:
            MemoryJournal(configuration: .init(retention: retention))
        case .sqlite:
            try await SQLiteJournal.open(
                configuration: .init(directory: directory, retention: retention),
                logger: quietLogger)
        }
    }
}

/// The journal samples' fixed time (``JournalSamples/time``).
let fixtureTime = JournalSamples.time

/// The entry for `revision` (``JournalSamples/entry(_:actionID:clientID:)``).
func entry(_ revision: UInt64, actionID: String? = nil, clientID: String? = nil) -> JournalEntry {
    JournalSamples.entry(revision, actionID: actionID, clientID: clientID)
}

/// A batch of the entries `revisions`.
func batch(_ revisions: ClosedRange<UInt64>) -> JournalBatch {
    JournalSamples.batch(revisions)
}
