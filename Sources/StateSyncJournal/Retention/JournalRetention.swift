/// How much history a journal keeps behind its newest snapshot, so that the
/// data directory (or, with `--memory`, the process) stays bounded under
/// endless traffic, presence joins and leaves included.
///
/// Recovery needs only the newest snapshot and the entries after it; the
/// entries kept behind it serve time travel (devtools). A `subscribe … since`
/// is answered from the engine's in-memory history window, not from the
/// journal, and gets a fresh snapshot when that is gone (PROTOCOL.md,
/// "Subscriptions"), so retention changes nothing for clients.
///
/// ```swift
/// var retention = JournalRetention()
/// retention.revisions = 50_000
/// retention.bytes = 256 << 20
/// ```
public struct JournalRetention: Sendable, Hashable {
    /// The most revisions kept behind the newest snapshot (more for up to
    /// one snapshot interval, so that every kept entry has a snapshot to
    /// replay from). Default 10,000: ten snapshot intervals at the default
    /// `snapshotEvery` of 1,000, hours of a busy board, and ~2 MB of
    /// ~200-byte actions. At least 1.
    public var revisions: UInt64
    /// The most bytes of actions kept behind the newest snapshot (the
    /// journal's payload; SQLite adds ~40 bytes of row and index per
    /// entry). Default 16 MiB: it bounds the data directory when actions
    /// are large (10,000 actions of 1 MiB would be 10 GB), and holds the
    /// default 10,000 revisions of actions up to ~1.6 KiB. At least 1.
    public var bytes: Int
    /// How many snapshots older than the kept journal are kept, thinned so
    /// that they are exponentially sparser with age (one per doubling of
    /// the distance). Default 8: the state as it was one, two, four…
    /// windows ago, for time travel to those very revisions. 0 keeps none.
    public var olderSnapshots: Int

    /// A retention with the documented defaults.
    public init(revisions: UInt64 = 10_000, bytes: Int = 16 << 20, olderSnapshots: Int = 8) {
        self.revisions = Swift.max(1, revisions)
        self.bytes = Swift.max(1, bytes)
        self.olderSnapshots = Swift.max(0, olderSnapshots)
    }
}
