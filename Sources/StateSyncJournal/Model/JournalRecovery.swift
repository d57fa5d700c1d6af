/// What ``Journal/recovery(pageSize:)`` returns at startup: start from
/// `snapshot` (or the initial state when `nil`), apply `entries` through the
/// reducer, and the state is at `lastRevision`.
public struct JournalRecovery: Sendable {
    /// The history's epoch (`welcome.epoch`).
    public var epoch: String
    /// The latest snapshot, or `nil` when none was saved yet.
    public var snapshot: JournalSnapshot?
    /// The highest durable revision: the server's revision after replay.
    public var lastRevision: UInt64
    /// The entries after the snapshot, through `lastRevision`, in order.
    public var entries: JournalReplay
}
