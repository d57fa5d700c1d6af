/// How much history a journal keeps behind its newest snapshot, so that storage
/// stays bounded under endless traffic. Entries kept behind it serve time travel
/// only: recovery starts at the newest snapshot and `subscribe … since` is
/// answered from the engine's memory, so retention changes nothing for clients.
///
/// ```swift
/// var retention = JournalRetention()
/// retention.revisions = 50_000
/// retention.bytes = 256 << 20
/// ```
public struct JournalRetention: Sendable, Hashable {
    /// The most revisions kept behind the newest snapshot (up to one snapshot interval
    /// more, so every kept entry has a snapshot to replay from). Default 10,000; at least 1.
    public var revisions: UInt64
    /// The most bytes of actions kept behind the newest snapshot, which bounds
    /// storage when actions are large. Default 16 MiB; at least 1.
    public var bytes: Int
    /// How many snapshots older than the kept journal are kept, one per doubling of
    /// their distance, for time travel. Default 8; 0 keeps none.
    public var olderSnapshots: Int

    /// A retention with the documented defaults.
    public init(revisions: UInt64 = 10_000, bytes: Int = 16 << 20, olderSnapshots: Int = 8) {
        self.revisions = Swift.max(1, revisions)
        self.bytes = Swift.max(1, bytes)
        self.olderSnapshots = Swift.max(0, olderSnapshots)
    }
}
