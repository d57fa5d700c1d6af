/// When to take a snapshot: every ``SyncEngineConfiguration/snapshotEvery``
/// published revisions, and once more at a clean shutdown.
struct SnapshotPolicy {
    /// The revision of the last snapshot taken (or of the one recovered from).
    private(set) var lastRevision: UInt64
    private let every: UInt64

    /// A policy that last took a snapshot at `lastRevision`.
    init(every: UInt64, lastRevision: UInt64) {
        self.every = Swift.max(1, every)
        self.lastRevision = lastRevision
    }

    /// Whether a snapshot is due at `revision`; when it is, it counts as taken.
    mutating func take(at revision: UInt64, force: Bool = false) -> Bool {
        guard revision > lastRevision, force || revision - lastRevision >= every else { return false }
        lastRevision = revision
        return true
    }
}
