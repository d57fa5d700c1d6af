import Foundation
import Logging
import StateSyncCore
@testable import StateSyncServer

/// A logger that prints nothing (tests never bootstrap logging).
let quietLogger = Logger(label: "statesync.tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// A fresh directory under the system's temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = NSTemporaryDirectory() + "statesync-tests-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: path) }  // cleanup only; a leftover temp dir hurts no test
    return try await body(path)
}

/// The journal implementations, so contract tests run against both.
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

/// A fixed point in time with a fraction that integer nanoseconds could not
/// carry exactly.
let fixtureTime = Date(timeIntervalSinceReferenceDate: 815_000_000.123_456_789_1)

/// The entry for `revision`: client `c-<revision % 3>`, action id `a<revision>`.
func entry(_ revision: UInt64, actionID: String? = nil, clientID: String? = nil) -> JournalEntry {
    JournalEntry(
        meta: Meta(revision: revision, clientID: clientID ?? "c-\(revision % 3)", time: fixtureTime + Double(revision)),
        actionID: actionID ?? "a\(revision)",
        action: Array(#"{"type":"increment","counter":"hits","by":\#(revision)}"#.utf8))
}

/// A batch of the entries `revisions`.
func batch(_ revisions: ClosedRange<UInt64>) -> JournalBatch {
    JournalBatch(entries: revisions.map { entry($0) })
}
