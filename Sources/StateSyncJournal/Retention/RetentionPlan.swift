/// Which entries and snapshots a journal drops, as pure functions of the
/// revisions it holds (no I/O), shared by ``SQLiteJournal`` and
/// ``MemoryJournal``.
///
/// Entries at or before a *cutoff* are beyond the retention window. The
/// journal keeps its entries from the newest snapshot at or before the
/// cutoff (``keepFrom(snapshots:cutoff:)``), so that every kept entry has a
/// kept snapshot at most one snapshot interval below it: rebuilding any kept
/// revision replays at most that many entries. Every snapshot from there on
/// is kept (dense: one per `snapshotEvery`, so their number is the window
/// over the interval); the ones before it are thinned to one per doubling
/// of their distance (``thinned(_:below:keeping:)``), so their number is
/// bounded too.
package enum RetentionPlan {
    /// The revision from which entries are kept (entries below it go): the
    /// newest snapshot at or before `cutoff`, or `cutoff + 1` when there is
    /// none (the entries up to the cutoff have no snapshot to replay from).
    ///
    /// - Parameter snapshots: the kept snapshots' revisions, ascending.
    package static func keepFrom(snapshots: [UInt64], cutoff: UInt64) -> UInt64 {
        snapshots.last { $0 <= cutoff } ?? cutoff + 1
    }

    /// The snapshots to keep of `snapshots` (ascending): every one at or
    /// after `base`, and `older` of those before it (all of them when there
    /// are fewer). Those are the oldest of each distance class (distances
    /// 1, 2–3, 4–7, 8–15… revisions below `base`), the nearest classes
    /// first; when the snapshots below `base` fill fewer classes than
    /// `older` (large batches bunch them), the nearest others make up the
    /// number.
    ///
    /// Keeping the oldest of a class means that a snapshot, once kept,
    /// stays until a still older one reaches its class as `base` advances:
    /// the kept ones drift apart exponentially with age.
    package static func thinned(_ snapshots: [UInt64], below base: UInt64, keeping older: Int) -> [UInt64] {
        let candidates = snapshots.filter { $0 < base }
        var sparse: [UInt64] = []
        var lastClass: Int?
        for revision in candidates {
            let distanceClass = UInt64.bitWidth - (base - revision).leadingZeroBitCount
            if distanceClass != lastClass { sparse.append(revision) }
            lastClass = distanceClass
        }
        var kept = Set(sparse.suffix(older))
        for revision in candidates.reversed() where kept.count < older { kept.insert(revision) }
        return candidates.filter(kept.contains) + snapshots.filter { $0 >= base }
    }

    /// The cutoff for `revisions` kept behind the newest snapshot `newest`:
    /// entries at or before it are beyond the window (0: none is).
    package static func cutoff(newest: UInt64, revisions: UInt64) -> UInt64 {
        newest > revisions ? newest - revisions : 0
    }
}
