/// What one `append` writes in one transaction: the actions accepted since the
/// previous batch, in revision order, and the rejections decided meanwhile.
///
/// Each entry with client and action ids records `.accepted(revision:)` for its
/// pair, each rejection `.rejected(code:message:)`; a pair's first outcome stays.
/// ``forgottenClients`` apply before the batch's outcomes are recorded,
/// ``outcomeTrims`` after; no other outcome is ever dropped.
///
/// ```swift
/// var batch = JournalBatch()
/// batch.entries.append(JournalEntry(meta: meta, actionID: "a17", action: bytes))
/// batch.rejections.append(JournalRejection(
///     clientID: "c-5f2a", actionID: "a18", code: "not_found", message: "no todo with id nope"))
/// ```
public struct JournalBatch: Sendable, Hashable {
    /// Accepted actions; their revisions must continue the journal's last
    /// revision with no gap (`last + 1`, `last + 2`, …).
    public var entries: [JournalEntry]
    /// Rejected dispatches to remember.
    public var rejections: [JournalRejection]
    /// clientIds whose remembered outcomes are all dropped, before this
    /// batch's outcomes are recorded (ignored by a ``SharedJournal``).
    public var forgottenClients: [String]
    /// clientIds whose remembered outcomes are trimmed, after this batch's
    /// are recorded, to the given number of their most recent.
    public var outcomeTrims: [String: Int]

    /// A batch of `entries` and `rejections` that forgets and trims nothing (all empty by default).
    public init(
        entries: [JournalEntry] = [], rejections: [JournalRejection] = [], forgottenClients: [String] = [],
        outcomeTrims: [String: Int] = [:]
    ) {
        self.entries = entries
        self.rejections = rejections
        self.forgottenClients = forgottenClients
        self.outcomeTrims = outcomeTrims
    }

    /// Whether the batch has nothing to write.
    public var isEmpty: Bool { entries.isEmpty && rejections.isEmpty && forgottenClients.isEmpty && outcomeTrims.isEmpty }

    /// Checks that the entries continue `lastRevision` without gaps and
    /// returns the revision the journal ends at after this batch.
    package func revisionAfterAppending(to lastRevision: UInt64) throws(JournalError) -> UInt64 {
        var expected = lastRevision
        for entry in entries {
            guard expected < UInt64(Int64.max) else { throw .revisionOverflow(entry.revision) }
            expected += 1
            guard entry.revision == expected else {
                throw .revisionGap(expected: expected, got: entry.revision)
            }
        }
        return expected
    }
}
