/// Which entries and snapshots a journal drops, as pure functions of its revisions
/// (shared by ``SQLiteJournal`` and ``MemoryJournal``): kept entries start at a kept
/// snapshot, and the snapshots before them are thinned to one per doubling of distance.
package enum RetentionPlan {
    /// The revision from which entries are kept: the newest of `snapshots` (ascending)
    /// at or before `cutoff`, or `cutoff + 1` when there is none.
    package static func keepFrom(snapshots: [UInt64], cutoff: UInt64) -> UInt64 {
        snapshots.last { $0 <= cutoff } ?? cutoff + 1
    }

    /// The snapshots to keep of `snapshots` (ascending): all from `base` on, and
    /// `older` before it: the oldest of each distance class (1, 2–3, 4–7… below
    /// `base`), nearest first, then the nearest others, so kept ones drift apart with age.
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
