public import Foundation
public import StateSyncCore
public import StateSyncJournal

/// Entries and batches of a counter app, for journal tests: each entry's
/// time has a fraction that integer nanoseconds could not carry, so a
/// journal that stores time lossily fails the contract.
public enum JournalSamples {
    /// A fixed point in time with a fraction that integer nanoseconds could
    /// not carry exactly.
    public static let time = Date(timeIntervalSinceReferenceDate: 815_000_000.123_456_789_1)

    /// The entry for `revision`: client `c-<revision % 3>`, action id `a<revision>`.
    public static func entry(_ revision: UInt64, actionID: String? = nil, clientID: String? = nil) -> JournalEntry {
        JournalEntry(
            meta: Meta(revision: revision, clientID: clientID ?? "c-\(revision % 3)", time: time + Double(revision)),
            actionID: actionID ?? "a\(revision)",
            action: Array(#"{"type":"increment","counter":"hits","by":\#(revision)}"#.utf8))
    }

    /// A batch of the entries `revisions`.
    public static func batch(_ revisions: ClosedRange<UInt64>) -> JournalBatch {
        JournalBatch(entries: revisions.map { entry($0) })
    }
}
